// Runs before the body renders (a classic script in <head>, not a module): puts the theme the
// page will use on <html> at once, so a dark page is dark from its first paint. The same rule
// as js/preferences.js, which takes over once the page's modules run: ?theme= forces, else the
// theme button's remembered choice, else the system's (styles.css also follows the system).
(function () {
  var theme = new URLSearchParams(location.search).get("theme");
  var stored = null;
  try { stored = localStorage.getItem("scroll-widgets.theme"); } catch (e) { /* not remembered */ }
  if (theme !== "light" && theme !== "dark") theme = stored === "light" || stored === "dark" ? stored : null;
  if (!theme) theme = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  document.documentElement.setAttribute("data-theme", theme);
})();
