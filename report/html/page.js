(function () {
  var body = document.body;
  var byTime = document.getElementById("by-time");
  function setScale() { body.classList.toggle("by-time", byTime.checked); }
  document.querySelectorAll("input[name=scale]").forEach(function (r) { r.addEventListener("change", setScale); });
  setScale();
  function fold(open) {
    document.querySelectorAll("section.ep > details").forEach(function (d) { d.open = open; });
  }
  document.getElementById("open-all").addEventListener("click", function () { fold(true); });
  document.getElementById("close-all").addEventListener("click", function () { fold(false); });
  // A folded episode or twin group keeps its body as the text of a
  // script element; it becomes elements when it is first opened.
  function build(d) {
    var s = d.querySelector(":scope > script[type='text/x-lazy']");
    if (!s) return;
    var div = document.createElement("div");
    div.innerHTML = s.textContent;
    s.replaceWith(div);
  }
  document.addEventListener("toggle", function (e) { if (e.target.open) build(e.target); }, true);
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (!el) return;
    for (var p = el; p; p = p.parentElement) { if (p.tagName === "DETAILS") { p.open = true; build(p); } }
    var own = el.querySelector(":scope > details");
    if (own) { own.open = true; build(own); }
    el.scrollIntoView();
  }
  window.addEventListener("hashchange", reveal);
  reveal();
})();
