'use client';
// Scalar's API reference, drawn in the browser from the served contract (/v1/openapi.json). It is
// part of the app's own bundle: the page loads nothing from another origin (no fonts, no
// telemetry, no proxy), which the page's security policy would refuse anyway.
import '@scalar/api-reference/style.css';
import { createApiReference } from '@scalar/api-reference';
import { useEffect, useRef } from 'react';

export default function ApiReference() {
  const mount = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!mount.current) return;
    const reference = createApiReference(mount.current, {
      url: '/v1/openapi.json',
      // the page's own header sits above the reference
      customCss: '.scalar-app { --scalar-custom-header-height: 57px; }',
      withDefaultFonts: false,
      telemetry: false,
      forceDarkModeState: 'light',
      hideDarkModeToggle: true,
      showDeveloperTools: 'never',
      documentDownloadType: 'json',
      defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
      mcp: { disabled: true },
    });
    return () => reference.destroy();
  }, []);
  return <div ref={mount} data-testid="api-reference" />;
}
