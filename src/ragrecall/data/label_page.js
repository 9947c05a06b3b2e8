"use strict";
(() => {
  const data = JSON.parse(document.getElementById("data").textContent);
  const storeKey = "ragrecall-labels:" + data.key;
  const claims = [];
  data.samples.forEach((sample, s) => sample.claims.forEach((claim, c) => claims.push({ s, c })));
  const blank = { answers: {}, pos: 0, who: "", shown: {}, at: {} };
  let state = blank;
  try {
    state = Object.assign({}, blank, JSON.parse(localStorage.getItem(storeKey) || "{}"));
  } catch (err) {
    state = Object.assign({}, blank);
  }
  const save = () => {
    try { localStorage.setItem(storeKey, JSON.stringify(state)); } catch (err) { /* storage full or off */ }
  };
  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => (k === "class" ? (node.className = v) : node.setAttribute(k, v)));
    children.forEach((child) => node.append(child));
    return node;
  };
  const keyOf = (i) => claims[i].s + ":" + claims[i].c;
  const app = document.getElementById("app");
  const who = document.getElementById("who");
  who.value = state.who || "";
  who.addEventListener("input", () => { state.who = who.value; save(); });
  // Enter leaves the name field, so that the next y, n or s answers instead of being typed into the name.
  who.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); who.blur(); } });
  const bar = document.getElementById("answerbar-inner");

  const counts = () => {
    const values = Object.values(state.answers);
    return { yes: values.filter((v) => v === true).length, no: values.filter((v) => v === false).length,
      skip: values.filter((v) => v === "skip").length };
  };

  function render() {
    app.textContent = "";
    bar.textContent = "";
    const { yes, no, skip } = counts();
    const done = yes + no + skip;
    document.getElementById("progress").value = claims.length ? done / claims.length : 1;
    document.getElementById("progress-text").textContent =
      `${done} of ${claims.length} claims answered (${yes} yes, ${no} no, ${skip} skipped)`;
    if (!claims.length) { app.append(el("p", {}, "No claim to label.")); return; }
    const i = Math.min(Math.max(state.pos, 0), claims.length - 1);
    const { s, c } = claims[i];
    const sample = data.samples[s];
    const claim = sample.claims[c];
    const answer = state.answers[keyOf(i)];
    const card = el("div", { class: "card", id: "card", "data-sample": String(sample.id), "data-claim": String(c) });
    card.append(el("div", { class: "muted", id: "where" },
      `claim ${i + 1} of ${claims.length} · sample ${s + 1} of ${data.samples.length} (${sample.id}) · claim ${c + 1} of ${sample.claims.length}`));
    // The claim and the answer buttons sit in the bar at the bottom: reachable while reading any passage.
    const kind = claim.importance ? "nugget · " + claim.importance : "claim";
    bar.append(el("div", { class: "label" }, kind), el("div", { class: "claim", id: "claim" }, claim.claim));
    const buttons = el("div", { class: "answer" });
    [["yes", true, "Supported (y)"], ["no", false, "Not supported (n)"], ["skip", "skip", "Skip (s)"]].forEach(([cls, value, text]) => {
      const b = el("button", { type: "button", class: cls, "aria-pressed": String(answer === value), id: "answer-" + cls }, text);
      b.addEventListener("click", () => answerWith(value));
      buttons.append(b);
    });
    const back = el("button", { type: "button", id: "prev", "aria-label": "previous claim" }, "←");
    back.addEventListener("click", () => move(-1));
    const next = el("button", { type: "button", id: "next", "aria-label": "next claim" }, "→");
    next.addEventListener("click", () => move(1));
    buttons.append(back, next);
    bar.append(buttons);
    if (sample.user_input) card.append(el("div", { class: "label" }, "question"), el("div", {}, sample.user_input));
    if (sample.reference) card.append(el("div", { class: "label" }, "reference"), el("div", {}, sample.reference));
    card.append(el("div", { class: "label" }, `retrieved passages (${sample.retrieved_contexts.length})`));
    sample.retrieved_contexts.forEach((text, n) =>
      card.append(el("div", { class: "passage" }, el("span", { class: "pn" }, String(n + 1)), text)));
    if (answer !== undefined) {
      const toggle = el("button", { type: "button", id: "toggle-judge" }, state.shown[keyOf(i)] ? "hide the judge's verdict" : "show the judge's verdict");
      toggle.addEventListener("click", () => { state.shown[keyOf(i)] = !state.shown[keyOf(i)]; save(); render(); });
      const judge = el("div", { id: "judge" });
      judge.hidden = !state.shown[keyOf(i)];
      judge.append(el("div", { class: claim.supported ? "ok" : "miss" },
        `judge: ${claim.supported ? "supported" : "not supported"} (${claim.verification})` +
        (claim.confirmed === true ? " · confirmed by a second look" : "") +
        (claim.confirmed === false ? " · not confirmed by a second look" : "") +
        (claim.votes.length ? ` · votes ${claim.votes.map((v) => (v ? "S" : "-")).join("")}` : "")));
      judge.append(el("div", { class: "muted" }, claim.reason));
      claim.quotes.forEach((q) => judge.append(el("div", { class: "passage" }, el("span", { class: "pn" }, String(q.context + 1)), q.text)));
      card.append(el("div", { class: "label" }, "the judge"), toggle, judge);
    }
    app.append(card);
  }

  function answerWith(value) {
    const i = Math.min(Math.max(state.pos, 0), claims.length - 1);
    state.answers[keyOf(i)] = value;
    state.at[keyOf(i)] = new Date().toISOString();
    if (state.pos < claims.length - 1) state.pos += 1;
    save();
    render();
  }

  function move(step) {
    state.pos = Math.min(Math.max(state.pos + step, 0), Math.max(claims.length - 1, 0));
    save();
    render();
  }

  function labelsJsonl() {
    const lines = [];
    data.samples.forEach((sample, s) => {
      const kept = sample.claims.map((claim, c) => [claim.claim, state.answers[s + ":" + c], state.at[s + ":" + c]])
        .filter(([, value]) => value === true || value === false);
      if (!kept.length) return;
      const metadata = { stratum: sample.stratum, labelled_at: kept.map(([, , at]) => at).sort().pop() };
      if (sample.inclusion_probability !== null) metadata.inclusion_probability = sample.inclusion_probability;
      metadata.fingerprint = sample.fingerprint;
      if (state.who) metadata.labelled_by = state.who;
      const skipped = sample.claims.length - kept.length;
      if (skipped) metadata.skipped_claims = skipped;
      const row = { id: sample.id };
      if (sample.user_input) row.user_input = sample.user_input;
      if (sample.reference) row.reference = sample.reference;
      row.retrieved_contexts = sample.retrieved_contexts;
      if (sample.labelled_field === "reference_nuggets") {
        const importance = Object.fromEntries(sample.claims.map((claim) => [claim.claim, claim.importance || "vital"]));
        row.reference_nuggets = kept.map(([text]) => ({ text, importance: importance[text] }));
      } else {
        row.reference_claims = kept.map(([text]) => text);
      }
      row.claim_labels = kept.map(([, value]) => value);
      row.metadata = metadata;
      lines.push(JSON.stringify(row));
    });
    return lines.join("\n") + (lines.length ? "\n" : "");
  }

  document.getElementById("download").addEventListener("click", () => {
    const blob = new Blob([labelsJsonl()], { type: "application/x-ndjson" });
    const link = el("a", { href: URL.createObjectURL(blob), download: "labels.jsonl" });
    document.body.append(link);
    link.click();
    link.remove();
  });

  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.ctrlKey || event.metaKey || event.altKey) return;
    const actions = { y: () => answerWith(true), n: () => answerWith(false), s: () => answerWith("skip"),
      ArrowRight: () => move(1), ArrowLeft: () => move(-1) };
    const action = actions[event.key];
    if (action) { event.preventDefault(); action(); }
  });
  render();
})();
