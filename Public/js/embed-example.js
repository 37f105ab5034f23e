// The embedding example (embed.html): shows the ruler's value as it moves, and what the
// form submitted (the form is sent to this same page with GET, so it is in the query).
const weight = document.getElementById("weight");
const now = document.getElementById("weight-now");
const show = () => { now.textContent = weight.valueText; };
// `input` fires while the value moves, `change` once it settles; both carry it in `detail`.
weight.addEventListener("input", show);
weight.addEventListener("change", show);

const query = new URLSearchParams(location.search);
if ([...query.keys()].length > 0) {
  const list = document.getElementById("submitted-fields");
  for (const [name, value] of query) {
    const dt = document.createElement("dt");
    const dd = document.createElement("dd");
    dt.textContent = name;
    dd.textContent = value;
    list.append(dt, dd);
  }
  document.getElementById("submitted").hidden = false;
}
