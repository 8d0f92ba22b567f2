// The landing's only script; the page is whole without it. It paints what the server could
// not know: the visitor's light or dark scheme, and the owner's accent colour fitted to it
// for contrast (shared/theme.js, as the mini-app and web cabinet paint them).
import { applyAccent, applyTelegramParams, watchScheme } from '../shared/theme.js';

const accent = document.documentElement.dataset.accent || null;
applyTelegramParams({});   // outside Telegram: the system's scheme
applyAccent(accent);
watchScheme(() => accent, {}, null);
