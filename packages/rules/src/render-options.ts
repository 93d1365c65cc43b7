// Ranges and defaults of the render options, from the render request rules and the contract's limits.

export const viewportRange = { width: { min: 320, max: 7680 }, height: { min: 200, max: 4320 }, deviceScaleFactor: { min: 1, max: 3 } } as const;
export const viewportDefaults = { width: 1280, height: 720, device_scale_factor: 1 } as const;

/** Image output sizes share the viewport's ranges; so do canvas sizes and saved sizes (the saved template rules). */
export const imageRange = { width: viewportRange.width, height: viewportRange.height, quality: { min: 1, max: 100 } } as const;
export const imageDefaults = { width: 1280, height: 720, quality: 80, transparent: false } as const;
export const canvasRange = { width: viewportRange.width, height: viewportRange.height } as const;

export const pdfDefaults = {
  format: 'A4',
  margin: '0mm',
  landscape: false,
  print_background: true,
  scale: 1,
  display_header_footer: false,
} as const;

export const javascriptModes = ['disabled', 'enabled'] as const;
export const defaultJavascriptMode = 'disabled';
