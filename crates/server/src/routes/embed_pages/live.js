// A live embed's page: follows the document's change events and draws the picture again
// after each. Served as a file of its own, so that the page's Content-Security-Policy allows
// no inline script.
(function () {
  "use strict";
  var box = document.getElementById("diagram");
  var note = document.getElementById("note");
  var picture = box.getAttribute("data-picture");
  var events = new EventSource(box.getAttribute("data-events"));
  var busy = false;
  var again = false;

  function say(text) {
    note.textContent = text;
    note.hidden = false;
  }

  function redraw() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    fetch(picture, { cache: "no-store" })
      .then(function (answer) {
        if (answer.status === 404) {
          events.close();
          throw new Error("This diagram is no longer shared.");
        }
        if (!answer.ok) {
          throw new Error("The diagram could not be drawn again (" + answer.status + ").");
        }
        return answer.text();
      })
      .then(function (text) {
        var svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
        box.replaceChildren(document.importNode(svg, true));
        box.setAttribute("data-drawn", String(Number(box.getAttribute("data-drawn")) + 1));
      })
      .catch(function (problem) {
        say(problem.message);
      })
      .finally(function () {
        busy = false;
        if (again) {
          again = false;
          redraw();
        }
      });
  }

  events.addEventListener("current", redraw);
  events.addEventListener("change", redraw);
  events.addEventListener("resync", redraw);
  events.onerror = function () {
    if (events.readyState === EventSource.CLOSED) {
      say("This page no longer follows the diagram's changes (too many viewers, or the " +
        "embed was turned off). Reload to try again.");
    }
  };
})();
