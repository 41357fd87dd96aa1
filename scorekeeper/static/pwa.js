/* Register the service worker (/sw.js): it keeps the app shell and the last good copy of each
   page on this phone, so an open session survives a Wi-Fi blip. Browsers allow service
   workers only over https or on localhost; elsewhere the app works as before without one. */
(() => {
  "use strict";
  const script = document.currentScript;
  if (!script || !("serviceWorker" in navigator) || !window.isSecureContext) return;
  const url = script.dataset.serviceWorker;
  window.addEventListener("load", () => {
    navigator.serviceWorker.register(url).catch(() => undefined);
  });
})();
