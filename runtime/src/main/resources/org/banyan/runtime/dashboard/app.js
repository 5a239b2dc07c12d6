// The DVM's dashboard: one snapshot a second from /events (server-sent), drawn with uPlot.
// Everything users wrote (task names, commands, details) goes in as text, never as markup.
"use strict";
(function () {
  const token = new URLSearchParams(location.search).get("token") || "";
  const $ = (id) => document.getElementById(id);
  const fmt = (n) => n.toLocaleString("en-US");
  let rateChart = null;
  let sizeChart = null;
  let sizeJobs = "";
  let last = null;

  function cell(row, text, cls) {
    const td = document.createElement("td");
    td.textContent = text;
    if (cls) td.className = cls;
    row.appendChild(td);
  }

  function fill(table, rows) {
    const body = $(table).querySelector("tbody");
    body.replaceChildren();
    for (const cells of rows) {
      const tr = document.createElement("tr");
      for (const c of cells) cell(tr, c[0], c[1]);
      body.appendChild(tr);
    }
  }

  function hosts(list) {
    const box = $("hosts");
    box.replaceChildren();
    for (const h of list) {
      const div = document.createElement("div");
      div.className = "host " + h.state;
      div.title = h.name + ": " + h.inUse + " of " + h.slots + " slots in use" + (h.gpus ? ", " + h.gpusInUse + " of " + h.gpus + " GPUs" : "") + " (" + h.state + ")";
      const held = (h.heldBy || []).join(", ");
      const name = document.createElement("div");
      name.textContent = h.name + " " + h.inUse + "/" + h.slots + (h.gpus ? " · GPU " + h.gpusInUse + "/" + h.gpus : "");
      div.appendChild(name);
      const cores = document.createElement("div");
      cores.className = "cores";
      for (let i = 0; i < Math.min(h.slots, 128); i++) {
        const c = document.createElement("span");
        c.className = "core" + (i < h.inUse ? " busy" : "");
        cores.appendChild(c);
      }
      div.appendChild(cores);
      const who = document.createElement("div");
      who.className = "held";
      who.textContent = held || (h.inUse > 0 ? "tasks" : "");
      div.appendChild(who);
      box.appendChild(div);
    }
  }

  function rates(t) {
    const xs = t.started.map((_, i) => t.firstSecond + i);
    const data = [xs, t.started, t.ended];
    if (!rateChart) {
      rateChart = new uPlot({
        width: Math.max(400, $("rate-chart").clientWidth || 800), height: 200,
        series: [{}, { label: "started/s", stroke: "#3a78c2" }, { label: "ended/s", stroke: "#2b7a2b" }],
        axes: [{}, { label: "tasks per second" }],
      }, data, $("rate-chart"));
    } else {
      rateChart.setData(data);
    }
  }

  function sizes(list, now) {
    const ids = [...new Set(list.map((s) => s.id))].sort((a, b) => a - b);
    if (ids.length === 0) return;
    const times = [...new Set(list.map((s) => s.time / 1000).concat([now / 1000]))].sort((a, b) => a - b);
    const series = ids.map((id) => {
      let v = null;
      const byTime = new Map(list.filter((s) => s.id === id).map((s) => [s.time / 1000, s.ranks]));
      return times.map((t) => { if (byTime.has(t)) v = byTime.get(t); return v; });
    });
    const key = ids.join(",");
    if (!sizeChart || key !== sizeJobs) {
      if (sizeChart) sizeChart.destroy();
      const colors = ["#8a3ab9", "#c2703a", "#3a78c2", "#2b7a2b", "#b02a2a"];
      sizeChart = new uPlot({
        width: Math.max(400, $("size-chart").clientWidth || 800), height: 180,
        series: [{}].concat(ids.map((id, i) => ({ label: "job " + id, stroke: colors[i % colors.length],
          paths: uPlot.paths.stepped({ align: 1 }) }))),
        axes: [{}, { label: "ranks" }],
      }, [times].concat(series), $("size-chart"));
      sizeJobs = key;
    } else {
      sizeChart.setData([times].concat(series));
    }
  }

  function timeline(list) {
    const ol = $("timeline");
    ol.replaceChildren();
    for (const d of list.slice().reverse()) {
      const li = document.createElement("li");
      li.textContent = new Date(d.time).toLocaleTimeString("en-GB") + "  " + d.line;
      if (/shrink|expan|grow/.test(d.line)) li.className = "resize";
      ol.appendChild(li);
    }
  }

  function tasks(t, now) {
    const f = $("filter").value.trim().toLowerCase();
    const keep = (fields) => !f || fields.some((x) => String(x).toLowerCase().includes(f));
    const state = $("state").value;
    $("running-box").hidden = state === "failed";
    $("failed-box").hidden = state === "running";
    fill("slowest", t.slowest.filter((r) => keep([r.id, r.name || "", r.tag || ""])).map((r) =>
      [[String(r.id)], [r.name || ""], [r.tag || ""], [((now - r.since) / 1000).toFixed(1) + " s"]]));
    fill("failures", t.failures.slice().reverse().filter((x) => keep([x.id, x.name || "", x.tag || "", x.detail || ""])).map((x) =>
      [[String(x.id)], [x.name || ""], [x.tag || ""], [String(x.exitCode)], [x.detail || "", "detail"]]));
  }

  // The colours of `banyan monitor`'s heat maps (cli/.../place/HeatMapDrawing): viridis on a log
  // scale from the smallest to the largest non-zero cell, cells without traffic outside it.
  const ZERO = "#f2f2f2";
  const STOPS = [0x440154, 0x472D7B, 0x3B528B, 0x2C728E, 0x21918C, 0x28AE80, 0x5EC962, 0xADDC30, 0xFDE725];
  function viridis(t) {
    const x = Math.max(0, Math.min(1, t)) * (STOPS.length - 1);
    const i = Math.min(STOPS.length - 2, Math.floor(x)), f = x - i, a = STOPS[i], b = STOPS[i + 1];
    const mix = (s) => Math.round(((a >> s) & 255) + (((b >> s) & 255) - ((a >> s) & 255)) * f);
    return "rgb(" + mix(16) + "," + mix(8) + "," + mix(0) + ")";
  }

  // one heat map per monitored job: row = sender (rank 0 on top), column = receiver
  function traffic(list) {
    const box = $("traffic");
    box.replaceChildren();
    if (!list || list.length === 0) {
      const none = document.createElement("span");
      none.className = "none";
      none.textContent = "no monitored job running";
      box.appendChild(none);
      return;
    }
    for (const t of list) {
      const fig = document.createElement("figure");
      fig.className = "heat";
      const cap = document.createElement("figcaption");
      fig.appendChild(cap);
      if (!t.bytes) {
        cap.textContent = "job " + t.job + ": " + t.size + " ranks, too many to draw";
        box.appendChild(fig);
        continue;
      }
      const n = t.size;
      const cell = Math.max(2, Math.floor(256 / n));
      const canvas = document.createElement("canvas");
      canvas.id = "heat-" + t.job;
      canvas.width = canvas.height = cell * n;
      const ctx = canvas.getContext("2d");
      let max = 0, min = Infinity, total = 0, nonzero = 0;
      for (const row of t.bytes) for (const v of row) { max = Math.max(max, v); total += v; if (v > 0) { nonzero++; min = Math.min(min, v); } }
      for (let r = 0; r < n; r++) {
        for (let c = 0; c < n; c++) {
          const v = t.bytes[r][c];
          ctx.fillStyle = v > 0 ? viridis(max === min ? 1 : (Math.log(v) - Math.log(min)) / (Math.log(max) - Math.log(min))) : ZERO;
          ctx.fillRect(c * cell, r * cell, cell - (cell > 4 ? 1 : 0), cell - (cell > 4 ? 1 : 0));
        }
      }
      canvas.dataset.nonzero = String(nonzero);
      canvas.title = "rows: senders, columns: receivers";
      cap.textContent = "job " + t.job + ": " + n + " ranks, " + fmt(total) + " bytes, " + nonzero + " pairs";
      fig.appendChild(canvas);
      box.appendChild(fig);
    }
  }

  function draw(s) {
    last = s;
    for (const k of ["waiting", "running", "done", "failed", "canceled"]) $("count-" + k).textContent = fmt(s.tasks[k]);
    hosts(s.hosts);
    fill("jobs", s.jobs.map((j) => [[String(j.id)], [String(j.ranks)], [j.command]]));
    fill("queue", s.queued.map((q) => [[String(q.id)], [q.minNodes + ".." + q.maxNodes], [q.command], [q.reason || ""]]));
    rates(s.tasks);
    sizes(s.sizes, s.time);
    timeline(s.decisions);
    traffic(s.traffic);
    tasks(s.tasks, s.time);
    $("live").textContent = "live · " + new Date(s.time).toLocaleTimeString("en-GB");
    $("live").className = "ok";
    document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
  }

  $("filter").addEventListener("input", () => { if (last) tasks(last.tasks, last.time); });
  $("state").addEventListener("change", () => { if (last) tasks(last.tasks, last.time); });
  const events = new EventSource("events?token=" + encodeURIComponent(token));
  events.onmessage = (e) => draw(JSON.parse(e.data));
  events.onerror = () => { $("live").textContent = "reconnecting…"; $("live").className = "stale"; };
})();
