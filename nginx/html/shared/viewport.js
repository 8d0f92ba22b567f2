// Telegram's viewport and safe areas as CSS variables: the host tells the page its usable
// height (the keyboard, a half-open sheet) and, in full screen, the insets of the device's
// notch and of Telegram's own header. base.css pads the shell with them.

export function watchViewport(tg) {
  const root = document.documentElement.style;
  tg.on('viewport_changed', (d) => {
    if (Number.isFinite(d.height) && d.height > 0) root.setProperty('--tg-viewport-height', d.height + 'px');
  });
  const insets = (prefix) => (d) => {
    for (const side of ['top', 'bottom', 'left', 'right']) {
      if (Number.isFinite(d[side])) root.setProperty(`--tg-${prefix}-${side}`, d[side] + 'px');
    }
  };
  tg.on('safe_area_changed', insets('safe-area-inset'));
  tg.on('content_safe_area_changed', insets('content-safe-area-inset'));
}
