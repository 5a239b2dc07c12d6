// A simulator's timelines (banyan sim workload --timeline DIR, sim pilot --timeline DIR): one chart
// per column, one line per file (a policy, or the pilot).
"use strict";
(function () {
  const token = new URLSearchParams(location.search).get("token") || "";
  const colors = ["#3a78c2", "#8a3ab9", "#2b7a2b", "#c2703a"];

  function chart(column, names, series) {
    // the files' points on one time axis, each value held until its next point (a step)
    const times = [...new Set(names.flatMap((n) => series[n].time))].sort((a, b) => a - b);
    const lines = names.map((n) => {
      const byTime = new Map(series[n].time.map((t, i) => [t, series[n][column][i]]));
      let v = null;
      return times.map((t) => { if (byTime.has(t)) v = byTime.get(t); return v; });
    });
    const section = document.createElement("section");
    const h = document.createElement("h2");
    h.textContent = column.replace(/_/g, " ");
    const box = document.createElement("div");
    box.id = "chart-" + column;
    section.append(h, box);
    document.getElementById("charts").appendChild(section);
    new uPlot({
      width: Math.max(400, box.clientWidth || 800), height: 220,
      scales: { x: { time: false } },
      series: [{ label: "time (s)" }].concat(names.map((n, i) => ({ label: n, stroke: colors[i % colors.length],
        paths: uPlot.paths.stepped({ align: 1 }) }))),
      axes: [{ label: "simulated seconds" }, { label: column.replace(/_/g, " ") }],
    }, [times].concat(lines), box);
  }

  fetch("timelines?token=" + encodeURIComponent(token)).then((r) => r.json()).then((data) => {
    const names = Object.keys(data.series);
    for (const column of data.columns) chart(column, names, data.series);
    const live = document.getElementById("live");
    live.textContent = names.join(" and ") + ", " + names.map((n) => data.series[n].time.length).join(" and ") + " points";
    live.className = "ok";
    document.body.dataset.drawn = names.join(",");
  });
})();
