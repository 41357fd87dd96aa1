/* What a page fetches only when first needed (a tile keypad, the sending of rounds kept
   offline): fingerprinted URLs, space-separated, each fetched once (again after a failure);
   scripts run in the order named (their words first). Bundled with the round form's scripts
   and with the table checker's (web/assets.py, BUNDLES): the pages that fetch on demand. */
window.ScorekeeperFetchFiles = (function () {
  "use strict";
  const fetched = {};
  const fetchOnce = (url) => {
    fetched[url] = fetched[url] || new Promise((resolve, reject) => {
      const script = url.endsWith(".js");
      const tag = document.createElement(script ? "script" : "link");
      Object.assign(tag, script ? { src: url, async: false } : { rel: "stylesheet", href: url });
      tag.onload = resolve;
      tag.onerror = () => {
        tag.remove();
        delete fetched[url]; // no network (nor service worker): the next time tries again
        reject(new Error(url));
      };
      document.head.append(tag);
    });
    return fetched[url];
  };
  return (urls) => Promise.all(urls.split(" ").map(fetchOnce));
})();
