/* The summary page's Share and Print buttons: the Web Share API shares the summary's address
   where the phone has it; the chart's download link is there for every other browser. */
(function () {
  "use strict";
  var share = document.getElementById("share");
  var print = document.getElementById("print");
  if (share && navigator.share) {
    share.hidden = false;
    share.addEventListener("click", function () {
      navigator
        .share({ title: share.getAttribute("data-title"), url: share.getAttribute("data-url") })
        .catch(function () {
          /* cancelled, or the phone would not share: the download link is still there */
        });
    });
  }
  if (print && window.print) {
    print.hidden = false;
    print.addEventListener("click", function () { window.print(); });
  }
})();
