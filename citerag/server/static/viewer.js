// citerag web app: sign in; converse (follow-ups, streaming, feedback) and open each cited
// passage beside the answer; upload, list, delete and re-ingest documents; review how each
// was parsed. Plain JavaScript, no dependencies, no network requests beyond this server.
// Every text from the server goes into the page through textContent (never innerHTML).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const textCache = new Map(); // doc_id -> /text response
  // Sent with every request that changes something: the server refuses a cookie-signed
  // POST/DELETE without it (another site's page cannot add a header without a preflight).
  const CSRF = { "x-citerag-page": "1" };
  let me = null; // /app/api/me
  let history = []; // the conversation: [{role, content}], sent as chat_history

  function el(tag, props, children) {
    const node = document.createElement(tag);
    Object.entries(props || {}).forEach(([key, value]) => {
      if (key === "dataset") Object.assign(node.dataset, value);
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value);
    });
    (children || []).forEach((child) =>
      node.append(typeof child === "string" ? document.createTextNode(child) : child));
    return node;
  }

  function detailOf(body, status) {
    if (body && typeof body.detail === "string") return body.detail;
    if (body && Array.isArray(body.detail)) {
      return body.detail.map((d) => d.msg || JSON.stringify(d)).join("; ");
    }
    return "the server answered " + status;
  }

  async function call(url, options) {
    const opts = Object.assign({ credentials: "same-origin" }, options || {});
    if (opts.method && opts.method !== "GET") {
      opts.headers = Object.assign({}, CSRF, opts.headers || {});
    }
    const resp = await fetch(url, opts);
    let body = null;
    const type = resp.headers.get("content-type") || "";
    if (type.includes("json")) body = await resp.json().catch(() => null);
    if (resp.status === 401 && !url.endsWith("/app/login")) {
      showLogin("Your session has ended: sign in again.");
    }
    if (!resp.ok) {
      const err = new Error(detailOf(body, resp.status));
      err.status = resp.status;
      throw err;
    }
    return body;
  }

  // Asks /rag/stream: the answer's text appears as the model writes it (a draft: its [n: "…"]
  // markers are plain text), a retry clears it, and the final event (status, validated
  // answer, citations) replaces it, markers becoming links only then.
  async function streamAnswer(question) {
    const resp = await fetch("/rag/stream", {
      method: "POST",
      credentials: "same-origin",
      headers: Object.assign({ "content-type": "application/json", accept: "text/event-stream" },
        CSRF),
      body: JSON.stringify({ input: { question: question, chat_history: history } }),
    });
    if (!resp.ok || !resp.body) {
      const type = resp.headers.get("content-type") || "";
      const body = type.includes("json") ? await resp.json().catch(() => null) : null;
      if (resp.status === 401) showLogin("Your session has ended: sign in again.");
      const err = new Error(detailOf(body, resp.status));
      err.status = resp.status;
      throw err;
    }
    const reader = resp.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    let final = null;
    const draft = $("answer");
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, "");
        let event = "message";
        const data = [];
        block.split(/\r?\n/).forEach((line) => {
          if (line.startsWith("event:")) event = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).trim());
        });
        if (event === "error") {
          const info = data.length ? JSON.parse(data.join("\n")) : {};
          throw new Error(info.message || "the server reported an error");
        }
        if (event !== "data" || !data.length) continue;
        const chunk = JSON.parse(data.join("\n"));
        if (chunk.type === "attempt") {
          draft.textContent = "";
        } else if (chunk.type === "token") {
          $("status").textContent = "Writing…";
          $("result").dataset.state = "streaming";
          draft.append(document.createTextNode(chunk.text));
        } else if (chunk.type === "final") {
          final = chunk;
        }
      }
      if (done) break;
    }
    if (!final) throw new Error("the answer stream ended without an answer");
    return final;
  }

  // -- sign in ------------------------------------------------------------------------------

  function showLogin(message) {
    $("workspace").hidden = true;
    $("tabs").hidden = true;
    $("who").hidden = true;
    $("login").hidden = false;
    $("login-error").textContent = message || "";
    $("token").focus();
  }

  function showWorkspace(who) {
    me = who;
    $("login").hidden = true;
    $("workspace").hidden = false;
    $("tabs").hidden = false;
    $("who").hidden = false;
    const groups = who.groups && who.groups.length ? " (" + who.groups.join(", ") + ")" : "";
    $("who-name").textContent = "Signed in as " + who.user + groups + (who.admin ? ", admin" : "");
    if (who.suggestion) $("question").placeholder = who.suggestion;
    const access = $("upload-access");
    access.replaceChildren(...["public"].concat(who.groups || []).map((g) =>
      el("option", { value: g, text: g === "public" ? "Everyone (public)" : "Group " + g })));
    selectTab("tab-ask");
    $("question").focus();
    restoreThread();
  }

  async function start() {
    try {
      showWorkspace(await call("/app/api/me"));
    } catch (err) {
      if (err.status !== 401) showLogin("Cannot reach the server: " + err.message);
    }
  }

  $("login-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const token = $("token").value.trim();
    try {
      const me = await call("/app/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: token }),
      });
      $("token").value = "";
      textCache.clear();
      showWorkspace(await call("/app/api/me").catch(() => me));
    } catch (err) {
      $("login-error").textContent =
        err.status === 401 ? "Unknown token. Try again." : "Sign-in failed: " + err.message;
    }
  });

  $("logout").addEventListener("click", async () => {
    await call("/app/logout", { method: "POST" }).catch(() => null);
    textCache.clear();
    clearResult();
    clearViewer();
    resetThread();
    $("docs-body").replaceChildren();
    $("upload-list").replaceChildren();
    clearReview();
    showLogin("Signed out.");
  });

  // -- asking -------------------------------------------------------------------------------

  const STATUS_TEXT = {
    answered: "Answered",
    no_evidence: "No evidence",
    failed: "Failed",
  };

  // Refusals and failures in plain words; the graph's technical reason behind a toggle.
  const PLAIN_REASON = {
    no_evidence: "None of the documents you may read answers this, so there is no answer " +
      "rather than a guess. Try other words, or ask about something they cover.",
    failed: "Something went wrong while answering. Try again in a moment.",
  };

  function clearResult() {
    ["status", "answer", "reason", "reason-technical", "rewritten-text", "vote-note"]
      .forEach((id) => { $(id).textContent = ""; });
    $("reason-details").hidden = true;
    $("reason-details").open = false;
    $("rewritten").hidden = true;
    $("feedback").hidden = true;
    $("vote-comment").value = "";
    ["vote-up", "vote-down"].forEach((id) => $(id).setAttribute("aria-pressed", "false"));
    delete $("feedback").dataset.rating;
    delete $("feedback").dataset.stored;
    $("status").className = "status";
    $("sources").replaceChildren();
    $("sources-title").hidden = true;
    $("looked-list").replaceChildren();
    $("looked").hidden = true;
    $("looked").open = false;
    $("result").dataset.state = "idle";
    delete $("result").dataset.status;
  }

  function markerButton(citation) {
    return el("button", {
      type: "button",
      class: "marker",
      "aria-label": "Open source " + citation.index + ": " + citation.doc_name + ", " +
        citation.locator,
      dataset: { cite: String(citation.index) },
      text: "[" + citation.index + "]",
    });
  }

  function renderAnswer(answer, byIndex) {
    const out = $("answer");
    out.replaceChildren();
    const marker = /\[(\d+)\]/g;
    let last = 0;
    let match;
    while ((match = marker.exec(answer)) !== null) {
      const citation = byIndex.get(Number(match[1]));
      if (!citation) continue;
      out.append(document.createTextNode(answer.slice(last, match.index)));
      out.append(markerButton(citation));
      last = match.index + match[0].length;
    }
    out.append(document.createTextNode(answer.slice(last)));
  }

  function renderSources(citations, list = $("sources")) {
    list.replaceChildren();
    citations.forEach((c) => {
      const open = el("button", {
        type: "button",
        class: "source",
        dataset: { cite: String(c.index) },
      }, [
        el("span", { class: "source-n", text: "[" + c.index + "]" }),
        " ",
        el("span", { class: "source-doc", text: c.doc_name || c.doc_id }),
        " ",
        el("span", { class: "source-loc", text: c.locator || "" }),
      ]);
      // every span the answer quoted from this source; a second one opens at its own range
      const spans = Array.isArray(c.quotes) && c.quotes.length ? c.quotes : [c];
      const quotes = spans.map((q, i) => i === 0
        ? el("blockquote", { class: "quote", text: q.quote || "" })
        : el("blockquote", { class: "quote" }, [el("button", {
          type: "button",
          class: "quote-open",
          title: "Open this quote (" + (q.locator || "") + ")",
          dataset: { cite: String(c.index), quote: String(i) },
        }, [q.quote || ""])]));
      list.append(el("li", { dataset: { cite: String(c.index) } }, [open, ...quotes]));
    });
  }

  // Where a refused run looked: the passages it read, each opened like a source.
  function renderLooked(looked) {
    renderSources(looked, $("looked-list"));
    $("looked-title").textContent = "Where it looked (" + looked.length + " passage" +
      (looked.length === 1 ? "" : "s") + ")";
    $("looked").hidden = looked.length === 0;
  }

  function renderResult(out) {
    const result = $("result");
    const status = out.status || "failed";
    const citations = Array.isArray(out.citations) ? out.citations : [];
    const byIndex = new Map(citations.map((c) => [c.index, c]));
    $("status").textContent = STATUS_TEXT[status] || status;
    $("status").className = "status status-" + status;
    renderAnswer(out.answer || "", byIndex);
    if (status !== "answered") {
      $("reason").textContent = PLAIN_REASON[status] || "";
      if (out.reason) {
        $("reason-technical").textContent = out.reason;
        $("reason-details").hidden = false;
      }
    }
    const condense = out.trace && out.trace.condense;
    if (condense && condense.standalone && condense.standalone !== condense.original) {
      $("rewritten-text").textContent = condense.standalone;
      $("rewritten").hidden = false;
    }
    renderSources(citations);
    $("sources-title").hidden = citations.length === 0;
    const looked = status === "no_evidence" && Array.isArray(out.looked_at) ? out.looked_at : [];
    renderLooked(looked);
    // on a refusal the buttons open the passages it read; else the citations
    const openable = looked.length ? new Map(looked.map((c) => [c.index, c])) : byIndex;
    lastAnswer = { out: out, question: currentQuestion };
    $("feedback").hidden = !(out.trace && out.trace.trace_id);
    result.onclick = (event) => {
      const button = event.target.closest("button[data-cite]");
      if (!button) return;
      const citation = openable.get(Number(button.dataset.cite));
      const span = button.dataset.quote && citation && (citation.quotes || [])[
        Number(button.dataset.quote)];
      openCitation(span ? { ...citation, ...span } : citation, button);
    };
    result.dataset.status = status;
    result.dataset.state = "done";
  }

  let lastAnswer = null; // {out, question} of the turn on show
  let currentQuestion = "";

  // A turn in the thread (compact: question, status, answer text).
  function threadItem(question, out) {
    const status = out.status || "failed";
    $("thread").append(el("li", { class: "turn", dataset: { status: status } }, [
      el("p", { class: "turn-q" }, [el("span", { class: "who-tag", text: "You" }), " ", question]),
      el("p", { class: "turn-a" }, [
        el("span", { class: "who-tag status-" + status, text: STATUS_TEXT[status] || status }),
        " ", out.answer || PLAIN_REASON[status] || ""]),
    ]));
  }

  // The turn on show moves into the thread.
  function archiveTurn() {
    if (!lastAnswer) return;
    threadItem(lastAnswer.question, lastAnswer.out);
    lastAnswer = null;
  }

  function resetThread() {
    history = [];
    lastAnswer = null;
    $("thread").replaceChildren();
    delete $("thread").dataset.restored;
    $("new-thread").hidden = true;
  }

  // The conversation is kept per user on the server: restored after a reload or sign-in.
  async function restoreThread() {
    resetThread();
    let saved;
    try {
      saved = await call("/app/api/conversation");
    } catch (err) {
      $("thread").dataset.restored = "0";
      return; // the page still works without it
    }
    (saved.turns || []).forEach((t) => {
      threadItem(t.question, t);
      history.push({ role: "user", content: t.question });
      history.push({ role: "assistant", content: t.answer || t.reason || "" });
    });
    history = history.slice(-40);
    $("new-thread").hidden = history.length === 0;
    $("thread").dataset.restored = String((saved.turns || []).length);
  }

  function saveTurn(question, out) {
    const condense = out.trace && out.trace.condense;
    const standalone = condense && condense.standalone !== condense.original
      ? condense.standalone : "";
    return call("/app/api/conversation/turns", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        question: question,
        status: out.status || "failed",
        answer: out.answer || "",
        reason: out.reason || "",
        standalone: standalone || "",
        trace_id: (out.trace && out.trace.trace_id) || "",
        citations: (out.citations || []).map((c) => ({ doc_name: c.doc_name, doc_id: c.doc_id,
          page: c.page, locator: c.locator })),
      }),
    }).catch(() => null);
  }

  $("new-thread").addEventListener("click", async () => {
    await call("/app/api/conversation", { method: "DELETE" }).catch(() => null);
    resetThread();
    clearResult();
    clearViewer();
    $("question").focus();
  });

  $("ask-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const question = $("question").value.trim();
    if (!question) return;
    archiveTurn();
    clearResult();
    clearViewer();
    currentQuestion = question;
    $("result").dataset.state = "loading";
    $("status").textContent = "Looking…";
    $("ask-button").disabled = true;
    try {
      const out = await streamAnswer(question);
      renderResult(out);
      history.push({ role: "user", content: question });
      history.push({ role: "assistant", content: out.answer || out.reason || "" });
      history = history.slice(-40);
      $("new-thread").hidden = false;
      $("question").value = "";
      await saveTurn(question, out);
    } catch (err) {
      clearResult();
      $("status").textContent = err.status === 503 ? "The index is still loading" : "Error";
      $("status").className = "status status-failed";
      $("reason").textContent = err.message;
      $("result").dataset.state = "error";
    } finally {
      $("ask-button").disabled = false;
    }
  });

  // -- the viewer ---------------------------------------------------------------------------

  function clearViewer() {
    const viewer = $("viewer");
    viewer.dataset.state = "empty";
    ["docId", "page", "kind", "cite"].forEach((key) => delete viewer.dataset[key]);
    $("viewer-title").textContent = "Source";
    $("viewer-where").textContent = "";
    $("viewer-note").textContent = "";
    $("viewer-body").replaceChildren();
    $("viewer-hint").hidden = false;
  }

  function markActive(index) {
    document.querySelectorAll("#result button[data-cite]").forEach((b) => {
      const on = b.dataset.cite === String(index);
      b.classList.toggle("active", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }

  let opening = 0; // the latest request wins when citations are clicked quickly

  async function openCitation(citation, button) {
    if (!citation) return;
    const viewer = $("viewer");
    const ticket = ++opening;
    markActive(citation.index);
    $("viewer-hint").hidden = true;
    $("viewer-title").textContent = "[" + citation.index + "] " + (citation.doc_name || "");
    $("viewer-where").textContent = citation.locator || "";
    $("viewer-note").textContent = "";
    $("viewer-body").replaceChildren();
    // Only a PDF page (#page=N) is shown as an image; a slide number opens the text.
    const paged = Boolean(citation.page) && String(citation.fragment || "").startsWith("#page=");
    Object.assign(viewer.dataset, {
      state: "loading",
      docId: citation.doc_id,
      cite: String(citation.index),
      kind: paged ? "pdf" : "text",
    });
    if (paged) viewer.dataset.page = String(citation.page);
    else delete viewer.dataset.page;
    try {
      if (paged) await showPage(citation, ticket);
      else await showText(citation, ticket);
    } catch (err) {
      if (ticket !== opening) return;
      $("viewer-note").textContent = "Cannot open this source: " + err.message;
      viewer.dataset.state = "error";
    }
    if (button && window.matchMedia("(max-width: 800px)").matches) {
      viewer.scrollIntoView({ block: "start" });
    }
  }

  async function showPage(citation, ticket) {
    const q = new URLSearchParams({ start: citation.start, end: citation.end });
    const base = "/app/api/documents/" + encodeURIComponent(citation.doc_id);
    const hl = await call(base + "/pages/" + citation.page + "/highlight?" + q);
    if (ticket !== opening) return;
    $("viewer-title").textContent = "[" + citation.index + "] " + (hl.title || hl.doc_name);
    $("viewer-where").textContent =
      (citation.doc_name || "") + ", page " + hl.page + " of " + hl.pages;
    $("viewer-note").textContent = hl.note || "";
    const img = el("img", {
      src: hl.image,
      alt: "Page " + hl.page + " of " + (hl.doc_name || "the document"),
      width: String(Math.round(hl.width)),
      height: String(Math.round(hl.height)),
    });
    const overlay = el("div", {
      class: "highlights",
      dataset: { highlightText: hl.text || "", method: hl.method },
    });
    hl.boxes.forEach((box) => {
      const mark = el("div", { class: "hl", dataset: { text: box.text }, title: box.text });
      mark.style.left = box.left * 100 + "%";
      mark.style.top = box.top * 100 + "%";
      mark.style.width = box.width * 100 + "%";
      mark.style.height = box.height * 100 + "%";
      overlay.append(mark);
    });
    const figure = el("figure", { class: "page", dataset: { page: String(hl.page) } },
      [img, overlay]);
    await new Promise((resolve, reject) => {
      img.onload = resolve;
      img.onerror = () => reject(new Error("the page image did not load"));
      $("viewer-body").replaceChildren(figure);
    });
    if (ticket !== opening) return;
    $("viewer").dataset.state = "ready";
    const first = overlay.querySelector(".hl");
    if (first) centreIn($("viewer-body"), first.offsetTop + figure.offsetTop);
  }

  async function showText(citation, ticket) {
    let doc = textCache.get(citation.doc_id);
    if (!doc) {
      const q = new URLSearchParams({ start: citation.start, end: citation.end });
      doc = await call("/app/api/documents/" + encodeURIComponent(citation.doc_id) +
        "/text?" + q);
      if (doc.offset === 0 && doc.text.length === doc.length) textCache.set(citation.doc_id, doc);
    }
    if (ticket !== opening) return;
    const from = citation.start - doc.offset;
    const to = citation.end - doc.offset;
    if (from < 0 || to > doc.text.length || from >= to) {
      throw new Error("the cited range is outside the document's text");
    }
    $("viewer-title").textContent = "[" + citation.index + "] " + (doc.title || doc.doc_name);
    const section = sectionOf(doc, citation.start) || citation.section || "";
    $("viewer-where").textContent = (citation.doc_name || "") +
      (section ? " › " + section : "") + ", characters " + citation.start + "–" + citation.end;
    const mark = el("mark", {
      id: "cited",
      dataset: { start: String(citation.start), end: String(citation.end) },
      text: doc.text.slice(from, to),
    });
    const pre = el("pre", { class: "doc-text", dataset: { fileType: doc.file_type || "" } }, [
      doc.text.slice(0, from), mark, doc.text.slice(to),
    ]);
    $("viewer-body").replaceChildren(pre);
    $("viewer").dataset.state = "ready";
    centreIn($("viewer-body"), mark.offsetTop);
  }

  // Scroll a container (not the window) so that a child's offset sits in its middle.
  function centreIn(container, offset) {
    container.scrollTop = Math.max(0, offset - container.clientHeight / 3);
  }

  function sectionOf(doc, start) {
    const hit = (doc.sections || []).find((s) => s.start <= start && start < s.end);
    return hit ? hit.section : "";
  }

  // -- feedback -----------------------------------------------------------------------------

  function pickVote(rating) {
    $("feedback").dataset.rating = rating;
    $("vote-up").setAttribute("aria-pressed", rating === "up" ? "true" : "false");
    $("vote-down").setAttribute("aria-pressed", rating === "down" ? "true" : "false");
    $("vote-note").textContent = "";
  }

  async function sendVote() {
    const rating = $("feedback").dataset.rating;
    if (!lastAnswer || !rating) {
      $("vote-note").textContent = "Choose Yes or No first.";
      return;
    }
    const out = lastAnswer.out;
    try {
      await call("/app/api/feedback", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          trace_id: out.trace.trace_id,
          rating: rating,
          comment: $("vote-comment").value.trim(),
          question: lastAnswer.question,
          status: out.status || "",
          answer: out.answer || "",
          citations: (out.citations || []).map((c) => ({
            doc_name: c.doc_name, doc_id: c.doc_id, page: c.page, locator: c.locator,
            quote: c.quote,
          })),
        }),
      });
      $("feedback").dataset.stored = rating;
      $("vote-note").textContent = "Thank you: your feedback is recorded.";
    } catch (err) {
      $("vote-note").textContent = "Feedback not recorded: " + err.message;
    }
  }

  $("vote-up").addEventListener("click", () => { pickVote("up"); sendVote(); });
  $("vote-down").addEventListener("click", () => { pickVote("down"); $("vote-comment").focus(); });
  $("vote-send").addEventListener("click", sendVote);
  $("vote-comment").addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); sendVote(); }
  });

  // -- tabs (arrow keys move between them, as ARIA tabs do) --------------------------------

  const TABS = ["tab-ask", "tab-docs", "tab-review"];

  function selectTab(id) {
    TABS.forEach((tab) => {
      const on = tab === id;
      $(tab).setAttribute("aria-selected", on ? "true" : "false");
      $(tab).tabIndex = on ? 0 : -1;
      $($(tab).getAttribute("aria-controls")).hidden = !on;
    });
    if (id === "tab-docs") loadDocuments();
  }

  TABS.forEach((id, i) => {
    $(id).addEventListener("click", () => selectTab(id));
    $(id).addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      const next = TABS[(i + step + TABS.length) % TABS.length];
      selectTab(next);
      $(next).focus();
    });
  });

  // -- documents: upload, list, delete, re-ingest ------------------------------------------

  const DOC_STATUS = {
    pending: "Indexing…",
    indexed: "Indexed",
    failed: "Failed",
    deleting: "Deleting…",
    duplicate: "Already there",
  };
  let documents = []; // merged rows of /documents and /index/documents

  function uploadRow(file) {
    const status = el("span", { class: "up-status", text: "Waiting" });
    const bar = el("progress", { max: "100", value: "0", "aria-label": "Upload of " + file.name });
    const detail = el("span", { class: "up-detail" });
    const row = el("li", { class: "up-row", dataset: { status: "queued", name: file.name } },
      [el("span", { class: "up-name", text: file.name }), bar, status, detail]);
    $("upload-list").append(row);
    return {
      row: row,
      set(state, text, more) {
        row.dataset.status = state;
        status.textContent = text;
        detail.textContent = more || "";
        if (state !== "uploading") bar.hidden = true;
      },
      progress(fraction) { bar.value = String(Math.round(fraction * 100)); },
    };
  }

  // XMLHttpRequest, not fetch: it reports the upload's progress.
  function sendFile(file, access, ui) {
    return new Promise((resolve) => {
      const form = new FormData();
      form.append("access", access);
      form.append("file", file, file.name);
      const xhr = new XMLHttpRequest();
      xhr.open("POST", "/documents");
      xhr.setRequestHeader("x-citerag-page", "1");
      xhr.responseType = "json";
      xhr.upload.onprogress = (e) => { if (e.lengthComputable) ui.progress(e.loaded / e.total); };
      xhr.onload = () => resolve({ status: xhr.status, body: xhr.response });
      xhr.onerror = () => resolve({ status: 0, body: { detail: "the upload did not reach the server" } });
      ui.set("uploading", "Uploading…");
      xhr.send(form);
    });
  }

  async function watchUpload(id, ui) {
    for (;;) {
      let rec;
      try {
        rec = await call("/documents/" + encodeURIComponent(id));
      } catch (err) {
        ui.set("failed", "Failed", err.message);
        return;
      }
      if (rec.status === "indexed") {
        ui.set("indexed", "Indexed", rec.chunks + " chunks" + (rec.pages ? ", " + rec.pages + " pages" : ""));
        loadDocuments();
        return;
      }
      if (rec.status === "failed") {
        ui.set("failed", "Failed", rec.reason || "the server gave no reason");
        loadDocuments();
        return;
      }
      ui.set("pending", "Indexing…");
      await new Promise((resolve) => setTimeout(resolve, 1000)); // poll the server
    }
  }

  async function uploadFiles(files) {
    const access = $("upload-access").value || "public";
    const jobs = Array.from(files).map(async (file) => {
      const ui = uploadRow(file);
      const res = await sendFile(file, access, ui);
      const body = res.body || {};
      if (res.status === 202) {
        ui.row.dataset.id = body.id;
        await watchUpload(body.id, ui);
      } else if (res.status === 200 && body.duplicate) {
        ui.row.dataset.id = body.id;
        ui.set("duplicate", "Already there", "already " + body.status + " as " + body.name);
      } else {
        if (res.status === 401) showLogin("Your session has ended: sign in again.");
        ui.set("failed", "Refused", detailOf(body, res.status));
      }
    });
    await Promise.all(jobs);
  }

  $("file-input").addEventListener("change", () => {
    const files = $("file-input").files;
    if (files && files.length) uploadFiles(files).finally(() => { $("file-input").value = ""; });
  });
  const drop = $("drop");
  ["dragenter", "dragover"].forEach((kind) => drop.addEventListener(kind, (event) => {
    event.preventDefault();
    drop.dataset.over = "true";
  }));
  ["dragleave", "drop"].forEach((kind) => drop.addEventListener(kind, () => {
    drop.dataset.over = "false";
  }));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    if (event.dataTransfer && event.dataTransfer.files.length) uploadFiles(event.dataTransfer.files);
  });

  let listing = 0;

  async function loadDocuments() {
    const ticket = ++listing;
    $("docs-table").dataset.state = "loading";
    try {
      const [uploads, built] = await Promise.all([
        call("/documents"),
        call("/index/documents").catch((err) => {
          if (err.status === 503) return { documents: [] }; // no index yet
          throw err;
        }),
      ]);
      if (ticket !== listing) return;
      const byUpload = new Map();
      const rows = [];
      (built.documents || []).forEach((d) => {
        // an e-mail attachment lists its message's upload id: a row of its own, never
        // merged with the message's upload, and deleted only with the message
        const attachment = Boolean(d.parent_doc_id);
        const row = {
          key: (!attachment && d.upload_id) || d.doc_id,
          docId: d.doc_id,
          uploadId: (!attachment && d.upload_id) || null,
          attachment: attachment,
          name: d.doc_name,
          title: d.title || "",
          type: d.file_type || "",
          access: d.access || "public",
          pages: d.pages,
          chunks: d.chunks,
          status: d.status,
          reason: d.reason || "",
          when: d.ingested_at || "",
          origin: d.origin,
          by: "",
        };
        if (d.upload_id && !attachment) byUpload.set(d.upload_id, row);
        rows.push(row);
      });
      (uploads.documents || []).forEach((u) => {
        const row = byUpload.get(u.id);
        if (row) {
          Object.assign(row, { status: u.status, reason: u.reason || row.reason,
            when: u.updated_at || row.when, by: u.uploaded_by, name: u.name });
          return;
        }
        rows.push({
          key: u.id, docId: null, uploadId: u.id, name: u.name, title: "",
          type: (u.name.split(".").pop() || "").toLowerCase(), access: u.access,
          pages: u.pages, chunks: u.chunks, status: u.status, reason: u.reason || "",
          when: u.updated_at || u.created_at, origin: "upload", by: u.uploaded_by,
        });
      });
      documents = rows.sort((a, b) => String(b.when).localeCompare(String(a.when)));
      renderDocuments();
      $("docs-table").dataset.state = "ready";
    } catch (err) {
      if (ticket !== listing) return;
      $("docs-note").textContent = "Cannot list the documents: " + err.message;
      $("docs-table").dataset.state = "error";
    }
  }

  function mayChange(row) {
    return row.origin === "upload" && !row.attachment && me && (me.admin || row.by === me.user);
  }

  function renderDocuments() {
    const q = $("doc-search").value.trim().toLowerCase();
    const shown = documents.filter((r) => !q ||
      [r.name, r.title, r.type, r.access, r.status, r.reason].join(" ").toLowerCase().includes(q));
    const body = $("docs-body");
    body.replaceChildren(...shown.map((r) => {
      const actions = el("td", { class: "actions" });
      if (r.docId && r.status === "indexed") {
        const review = el("button", { type: "button", class: "link review-doc", text: "Review" });
        review.addEventListener("click", () => openReview(r.docId, r.name));
        actions.append(review);
      }
      if (mayChange(r) && (r.status === "indexed" || r.status === "failed")) {
        const again = el("button", { type: "button", class: "link reingest-doc", text: "Re-ingest" });
        again.addEventListener("click", () => changeDocument(r, "reingest", again));
        actions.append(again);
      }
      if (mayChange(r) && r.status !== "deleting") {
        const del = el("button", { type: "button", class: "link danger delete-doc", text: "Delete" });
        del.addEventListener("click", () => {
          if (del.dataset.armed !== "true") { // a second press confirms
            del.dataset.armed = "true";
            del.textContent = "Confirm delete";
            return;
          }
          changeDocument(r, "delete", del);
        });
        actions.append(del);
      }
      const status = el("td", { class: "doc-status status-" + r.status }, [
        DOC_STATUS[r.status] || r.status]);
      if (r.reason) status.append(el("div", { class: "doc-reason", text: r.reason }));
      return el("tr", { dataset: { key: r.key, status: r.status, name: r.name } }, [
        el("th", { scope: "row" }, [el("span", { class: "doc-name", text: r.name }),
          r.title && r.title !== r.name ? el("div", { class: "muted", text: r.title }) : ""]),
        el("td", { text: r.type }),
        el("td", { text: r.access }),
        el("td", { text: r.pages == null ? "–" : String(r.pages) }),
        el("td", { text: r.chunks == null ? "–" : String(r.chunks) }),
        status,
        el("td", { text: String(r.when || "").replace("T", " ").replace("+00:00", " UTC") }),
        actions,
      ]);
    }));
    $("docs-note").textContent = shown.length === documents.length
      ? documents.length + " documents"
      : shown.length + " of " + documents.length + " documents";
    // while something is being indexed or deleted, ask the server again shortly
    const busy = documents.some((r) => r.status === "pending" || r.status === "deleting");
    if (busy && !refreshTimer && !$("panel-docs").hidden) {
      refreshTimer = setTimeout(() => { refreshTimer = null; loadDocuments(); }, 1500);
    }
  }
  let refreshTimer = null;

  async function changeDocument(row, action, button) {
    button.disabled = true;
    const id = encodeURIComponent(row.uploadId || row.docId);
    try {
      if (action === "delete") await call("/documents/" + id, { method: "DELETE" });
      else await call("/documents/" + id + "/reingest", { method: "POST" });
      $("docs-note").textContent = (action === "delete" ? "Deleting " : "Re-ingesting ") + row.name;
    } catch (err) {
      $("docs-note").textContent = "Cannot " + (action === "delete" ? "delete " : "re-ingest ") +
        row.name + ": " + err.message;
    }
    await loadDocuments();
  }

  $("doc-search").addEventListener("input", renderDocuments);
  $("docs-refresh").addEventListener("click", loadDocuments);

  // -- parsing review -----------------------------------------------------------------------

  function clearReview() {
    $("review-title").textContent = "Parsing review";
    $("review-summary").textContent = "";
    $("review-warnings").replaceChildren();
    $("review-pages").replaceChildren();
    $("review-pages").dataset.state = "empty";
    $("review-hint").hidden = false;
  }

  // The page's text with its typed blocks (headings, tables, ...) wrapped and labelled.
  function pageText(page) {
    const parts = [];
    let at = 0;
    const spans = page.blocks.filter((b) => b.end > b.start);
    // the finest blocks: a table is shown through its rows
    const leaves = spans.filter((b) => !spans.some((o) => o !== b && o.start >= b.start &&
      o.end <= b.end && (o.end - o.start) < (b.end - b.start)));
    leaves.forEach((b) => {
      if (b.start < at) return; // overlaps the previous block
      parts.push(page.text.slice(at, b.start));
      parts.push(el("span", { class: "block block-" + b.kind, dataset: { kind: b.kind },
        title: b.kind.replace("_", " "), text: page.text.slice(b.start, b.end) }));
      at = b.end;
    });
    parts.push(page.text.slice(at));
    return el("pre", { class: "doc-text review-text" }, parts);
  }

  async function openReview(docId, name) {
    selectTab("tab-review");
    clearReview();
    $("review-hint").hidden = true;
    $("review-title").textContent = "Parsing review: " + name;
    $("review-pages").dataset.state = "loading";
    try {
      const r = await call("/app/api/documents/" + encodeURIComponent(docId) + "/review");
      const counts = Object.entries(r.block_counts || {}).map(([k, n]) => n + " " + k.replace("_", " "));
      $("review-summary").textContent = [r.file_type, r.pages.length + " page(s)",
        r.chunks + " chunks", "label " + r.access].concat(counts).join(" · ");
      const warn = r.warnings.slice();
      if (r.empty_pages.length) warn.push("no text extracted from page(s) " + r.empty_pages.join(", "));
      if (r.short_pages.length) warn.push("little text on page(s) " + r.short_pages.join(", "));
      $("review-warnings").replaceChildren(...warn.map((w) => el("li", { text: w })));
      const cards = r.pages.map((p) => {
        const flags = [];
        if (p.empty) flags.push("empty");
        if (p.short) flags.push("short");
        if (p.truncated) flags.push("cut");
        const head = el("h3", { text: (p.page ? "Page " + p.page : "Text") + " · " + p.chars +
          " characters" + (flags.length ? " · " + flags.join(", ") : "") });
        const left = p.image
          ? el("img", { src: p.image, alt: "Page " + p.page + " as rendered", loading: "lazy" })
          : el("p", { class: "muted", text: "No page image: this document has no pages." });
        return el("article", { class: "review-page", dataset: { page: String(p.page || ""),
          flags: flags.join(" ") } }, [head, el("div", { class: "review-cols" }, [
          el("div", { class: "review-image" }, [left]), pageText(p)])]);
      });
      $("review-pages").replaceChildren(...cards);
      $("review-pages").dataset.state = "ready";
    } catch (err) {
      $("review-summary").textContent = "Cannot review this document: " + err.message;
      $("review-pages").dataset.state = "error";
    }
  }

  start();
})();
