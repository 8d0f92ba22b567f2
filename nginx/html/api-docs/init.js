// Renders openapi.yaml (beside this script, under the same release path) with the vendored
// Swagger UI. A separate file because the site's CSP allows no inline script.
(function () {
  "use strict";
  var script = document.currentScript;
  var base = script.src.slice(0, script.src.lastIndexOf("/") + 1);
  window.addEventListener("DOMContentLoaded", function () {
    window.ui = window.SwaggerUIBundle({
      url: base + "openapi.yaml",
      dom_id: "#swagger-ui",
      deepLinking: true,
      presets: [window.SwaggerUIBundle.presets.apis],
      layout: "BaseLayout",
      validatorUrl: null,        // no badge from a third-party validator
      defaultModelsExpandDepth: 0,
      docExpansion: "list",
    });
  });
})();
