// The one rule for what a person reads when a call fails (every page: app, admin, web
// cabinet). An error the server names (`code`, errors.hpp) is said in the user's language
// (`code.<code>` keys). Otherwise: server `detail` texts are English: in English a 4xx
// detail says what was wrong with the request and is shown as it is; in Russian a known
// detail has its translation (`detail.<text>` keys), else the status's message; an outage
// (5xx) always shows the status's message, because its detail is for the logs.

import { ApiError } from './api.js';

export function errorText(err, t) {
  if (!(err instanceof ApiError)) return t('error.generic');
  if (err.offline) return t('error.offline');
  if (err.code && t.has('code.' + err.code)) return t('code.' + err.code);
  if (err.detail && t.has('detail.' + err.detail)) return t('detail.' + err.detail);
  if (err.detail && t.lang === 'en' && err.status < 500) return err.detail;
  if (t.has('error.' + err.status)) return t('error.' + err.status);
  return err.detail || t('error.generic');
}
