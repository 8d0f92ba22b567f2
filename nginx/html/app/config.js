// The shop's own settings for this page, read before the app starts (never cached by
// browsers, so an edit shows at once). Uncomment to use an API on another origin; add that
// origin to connect-src in nginx/cabinet_http.conf and to WEB__CORS_ORIGINS.
// window.__CABINET_API_BASE__ = 'https://api.example.com';
