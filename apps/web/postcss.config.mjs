// Tailwind CSS 4 through PostCSS; the dashboard's stylesheet imports it (src/dashboard/styles.css).
export default { plugins: { '@tailwindcss/postcss': {} } };
