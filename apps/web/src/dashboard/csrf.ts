/** The form field that carries the session's CSRF token to a server action (ActionForm adds it). */
export const csrfFieldName = '_csrf';
