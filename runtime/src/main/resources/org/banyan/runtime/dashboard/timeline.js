// A simulator's timelines (banyan sim workload --timeline DIR), one chart per measure, one line per policy.
"use strict";
(function () {
  const token = new URLSearchParams(location.search).get("token") || "";
  const colors = ["#3a78c2", "#8a3ab9", "#2b7a2b", "#c2703a"];

  function chart(id, label, policies, data) {
    // the policies' points on one time axis, each held until its next point (a step)
    const times = [...new Set(policies.flatMap((p) => data[p].time))].sort((a, b) => a - b);
    const series = policies.map((p) => {
      const byTime = new Map(data[p].time.map((t, i) => [t, data[p][id][i]]));
      let v = null;
      return times.map((t) => { if (byTime.has(t)) v = byTime.get(t); return v; });
    });
    const box = document.getElementById("chart-" + id);
    new uPlot({
      width: Math.max(400, box.clientWidth || 800), height: 220,
      scales: { x: { time: false } },
      series: [{ label: "time (s)" }].concat(policies.map((p, i) => ({ label: p, stroke: colors[i % colors.length],
        paths: uPlot.paths.stepped({ align: 1 }) }))),
      axes: [{ label: "simulated seconds" }, { label: label }],
    }, [times].concat(series), box);
  }

  fetch("timelines?token=" + encodeURIComponent(token)).then((r) => r.json()).then((data) => {
    const policies = Object.keys(data);
    chart("allocated", "nodes", policies, data);
    chart("running", "jobs", policies, data);
    chart("completed", "jobs", policies, data);
    const live = document.getElementById("live");
    live.textContent = policies.join(" and ") + ", " + policies.map((p) => data[p].time.length).join(" and ") + " points";
    live.className = "ok";
    document.body.dataset.drawn = policies.join(",");
  });
})();
