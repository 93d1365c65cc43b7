'use client';
// Scalar's API reference, drawn in the browser from the served contract (/v1/openapi.json). It is
// part of the app's own bundle: the page loads nothing from another origin (no fonts, no
// telemetry, no proxy), which the page's security policy would refuse anyway.
import './zod-jitless.ts'; // first: before Scalar's modules build their zod schemas
import '@scalar/api-reference/style.css';
import { createApiReference } from '@scalar/api-reference';
import { useEffect, useRef } from 'react';

/**
 * The site's header sits above the reference. Text and method colours are the dashboard's
 * darker shades, which keep a 4.5:1 contrast on white (Scalar's own lighter ones fall short);
 * the doubled class outranks the theme's `.light-mode`. Code in the document's description
 * wraps, so no block needs scrolling by keyboard.
 */
const customCss = `
.scalar-app { --scalar-custom-header-height: 57px; }
.light-mode.light-mode {
  --scalar-color-1: #0f172a;
  --scalar-color-2: #334155;
  --scalar-color-3: #475569;
  --scalar-color-accent: #4338ca;
  --scalar-color-green: #047857;
  --scalar-color-red: #b91c1c;
  --scalar-color-yellow: #a16207;
  --scalar-color-blue: #1d4ed8;
  --scalar-color-orange: #c2410c;
  --scalar-color-purple: #6d28d9;
  --scalar-color-query: #0f766e;
}
.markdown pre, .markdown pre code { white-space: pre-wrap !important; overflow-wrap: anywhere; overflow: visible !important; }
`;

export default function ApiReference() {
  const mount = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!mount.current) return;
    const reference = createApiReference(mount.current, {
      url: '/v1/openapi.json',
      customCss,
      withDefaultFonts: false,
      telemetry: false,
      forceDarkModeState: 'light',
      hideDarkModeToggle: true,
      showDeveloperTools: 'never',
      documentDownloadType: 'json',
      defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
      // curl examples carry the API key header (a placeholder until a key is entered)
      authentication: { preferredSecurityScheme: 'apiKey' },
      // Scalar's hosted helpers (its AI chat, its MCP service, the client app) live on its own servers
      agent: { disabled: true },
      mcp: { disabled: true },
      hideClientButton: true,
    });
    return () => reference.destroy();
  }, []);
  return <div ref={mount} data-testid="api-reference" />;
}
