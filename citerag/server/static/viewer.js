// citerag viewer: sign in, ask, and open each cited passage beside the answer.
// Plain JavaScript, no dependencies, no network requests beyond this server.
// Every text from the server goes into the page through textContent (never innerHTML).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const textCache = new Map(); // doc_id -> /text response

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
    const resp = await fetch(url, Object.assign({ credentials: "same-origin" }, options || {}));
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
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ input: { question: question } }),
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
    $("who").hidden = true;
    $("login").hidden = false;
    $("login-error").textContent = message || "";
    $("token").focus();
  }

  function showWorkspace(me) {
    $("login").hidden = true;
    $("workspace").hidden = false;
    $("who").hidden = false;
    const groups = me.groups && me.groups.length ? " (" + me.groups.join(", ") + ")" : "";
    $("who-name").textContent = "Signed in as " + me.user + groups;
    $("question").focus();
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
      showWorkspace(me);
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
    showLogin("Signed out.");
  });

  // -- asking -------------------------------------------------------------------------------

  const STATUS_TEXT = {
    answered: "Answered",
    no_evidence: "No evidence",
    failed: "Failed",
  };

  function clearResult() {
    ["status", "answer", "reason"].forEach((id) => { $(id).textContent = ""; });
    $("status").className = "status";
    $("sources").replaceChildren();
    $("sources-title").hidden = true;
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

  function renderSources(citations) {
    const list = $("sources");
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
      const quote = el("blockquote", { class: "quote", text: c.quote || "" });
      list.append(el("li", { dataset: { cite: String(c.index) } }, [open, quote]));
    });
    $("sources-title").hidden = citations.length === 0;
  }

  function renderResult(out) {
    const result = $("result");
    const status = out.status || "failed";
    const citations = Array.isArray(out.citations) ? out.citations : [];
    const byIndex = new Map(citations.map((c) => [c.index, c]));
    $("status").textContent = STATUS_TEXT[status] || status;
    $("status").className = "status status-" + status;
    renderAnswer(out.answer || "", byIndex);
    $("reason").textContent = out.reason ? "Reason: " + out.reason : "";
    renderSources(citations);
    result.onclick = (event) => {
      const button = event.target.closest("button[data-cite]");
      if (button) openCitation(byIndex.get(Number(button.dataset.cite)), button);
    };
    result.dataset.status = status;
    result.dataset.state = "done";
  }

  $("ask-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const question = $("question").value.trim();
    if (!question) return;
    clearResult();
    clearViewer();
    $("result").dataset.state = "loading";
    $("status").textContent = "Looking…";
    $("ask-button").disabled = true;
    try {
      renderResult(await streamAnswer(question));
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

  start();
})();
