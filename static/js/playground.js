// Nova playground: POST the message (with the optional model, temperature, max tokens and tools
// definition), read the SSE stream with fetch and append text and tool calls as plain text
// (textContent). Once a reply is over, the server's summary of it (playground/status?reply=)
// brings its tokens, its cost and its Markdown as HTML sanitised by the History page's
// renderer: that HTML is the only markup ever put in the page. Stop aborts the request; the
// server charges what was generated until then.
(function () {
  "use strict";
  const root = document.getElementById("playground");
  if (!root) return;
  const form = document.getElementById("pg-form");
  const input = document.getElementById("pg-message");
  const target = document.getElementById("pg-target");
  const modelPicker = document.getElementById("pg-model");
  const temperatureInput = document.getElementById("pg-temperature");
  const maxTokensInput = document.getElementById("pg-max-tokens");
  const transcript = document.getElementById("pg-transcript");
  const sendButton = document.getElementById("pg-send");
  const stopButton = document.getElementById("pg-stop");
  const errorBox = document.getElementById("pg-error");
  const toolsInput = document.getElementById("pg-tools");
  const toolsBox = document.getElementById("pg-tools-box");
  const lockNote = document.getElementById("pg-lock-note");
  const creditNote = document.getElementById("pg-credit-note");
  // The transcript is not a live region (a screen reader would read every streamed token);
  // this hidden status line says each finished reply once.
  const announcer = document.getElementById("pg-announce");
  const csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;
  const creditsContact = root.dataset.creditsContact || "";
  let conversationId = root.dataset.conversation || "";
  let controller = null; // the AbortController of the reply being streamed
  let busy = false;

  // The fields a 400's param can name, so the field is marked and the message says where.
  const FIELDS = {
    temperature: temperatureInput,
    max_tokens: maxTokensInput,
    model: modelPicker,
    tools: toolsInput,
  };

  function addTurn(role, text, label) {
    const item = document.createElement("li");
    item.className = "turn turn-" + role;
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = label || role;
    const body = document.createElement("div");
    body.className = "text";
    body.textContent = text;
    item.append(who, body);
    transcript.append(item);
    return body;
  }

  function addLine(item, className, text) {
    const line = document.createElement("p");
    line.className = className;
    line.textContent = text;
    item.append(line);
    return line;
  }

  function selection() {
    const [kind, value] = target.value.split(/:(.*)/s);
    return { kind: kind, value: value };
  }

  // The model picker applies to a persona; a model chosen under "Talk to" is the model.
  function syncModelPicker() {
    modelPicker.disabled = busy || selection().kind !== "persona";
  }

  function showLockNote(text) {
    if (!lockNote || lockNote.textContent) return;
    lockNote.textContent = text;
    lockNote.hidden = false;
  }

  // A conversation keeps what it was started with (the server enforces it: a persona
  // conversation continues only with its persona, a plain one only without).
  function lockTarget() {
    const chosen = target.options[target.selectedIndex];
    if (selection().kind === "persona") {
      target.disabled = true;
      const name = chosen ? chosen.textContent.replace(/ \(mine\)$/, "") : "this persona";
      showLockNote(
        "The persona is locked to this conversation: it is with " + name + ", whose " +
        "instructions its history was written for. You can change the model; start a new " +
        "conversation to talk to someone else."
      );
    } else {
      for (const option of target.querySelectorAll("option[value^='persona:']")) option.disabled = true;
      showLockNote(
        "This conversation has no persona, so none can be chosen for it: you can change the " +
        "model; start a new conversation to talk to a persona."
      );
    }
  }

  function setBusy(value) {
    busy = value;
    sendButton.disabled = value;
    stopButton.hidden = !value;
    stopButton.disabled = !value;
    syncModelPicker();
  }

  // A number typed in a field, sent as a number when it reads as one; anything else is sent as
  // typed, for the server to refuse with the API's message.
  function numberField(field, integer) {
    const text = field.value.trim();
    if (!text) return undefined;
    if (integer ? /^[+-]?\d+$/.test(text) : /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) {
      return Number(text);
    }
    return text;
  }

  function markInvalid(param) {
    for (const [name, field] of Object.entries(FIELDS)) {
      const invalid = typeof param === "string" && (param === name || param.startsWith(name + "[") || param.startsWith(name + "."));
      field.setAttribute("aria-invalid", invalid ? "true" : "false");
      if (invalid && field === toolsInput) toolsBox.open = true;
    }
  }

  function formatTokens(summary) {
    return (
      summary.prompt_tokens + " prompt + " + summary.completion_tokens + " completion tokens · $" +
      summary.cost
    );
  }

  // The server's Markdown, nh3-sanitised (conversations.markdown); parsed in an inert
  // <template> and moved into the reply.
  function showMarkdown(body, html) {
    const template = document.createElement("template");
    // Trimmed: the renderer's final newline would otherwise count as the reply's text.
    template.innerHTML = html.trim();
    body.replaceChildren(template.content);
    body.classList.add("markdown");
  }

  function wait(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  // Where the reply went, once the server has settled it (at once after a full stream; after
  // a Stop the server first notices the request is gone).
  async function replyStatus(replyId) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const response = await fetch(root.dataset.statusUrl + "?reply=" + encodeURIComponent(replyId));
      if (!response.ok) return null;
      const status = await response.json();
      if (!status.pending) return status;
      await wait(250);
    }
    return null;
  }

  async function conversationStatus() {
    if (!conversationId) return null;
    const response = await fetch(root.dataset.statusUrl + "?conversation=" + encodeURIComponent(conversationId));
    return response.ok ? response.json() : null;
  }

  function showBalance(status) {
    document.getElementById("pg-balance").textContent = "$" + status.balance;
    if (status.last_cost !== null && status.last_cost !== undefined) {
      document.getElementById("pg-cost").textContent = "$" + status.last_cost;
    }
  }

  // The reply being streamed: its text element, and its tool calls assembled per index.
  function newReply(body) {
    return { item: body.parentElement, body: body, calls: new Map(), list: null, finish: null, error: null, id: "" };
  }

  function toolCallView(reply, position) {
    let call = reply.calls.get(position);
    if (call) return call;
    if (!reply.list) {
      reply.list = document.createElement("div");
      reply.list.className = "tool-calls";
      reply.item.append(reply.list);
    }
    const box = document.createElement("div");
    box.className = "tool-call";
    const head = document.createElement("p");
    head.className = "tool-call-head";
    const name = document.createElement("code");
    name.className = "tool-name";
    const id = document.createElement("code");
    id.className = "tool-call-id";
    head.append("Called ", name, " ", id);
    const pre = document.createElement("pre");
    pre.className = "tool-arguments";
    const args = document.createElement("code");
    pre.append(args);
    box.append(head, pre);
    reply.list.append(box);
    call = { id: "", name: "", arguments: "", nameEl: name, idEl: id, argsEl: args };
    reply.calls.set(position, call);
    return call;
  }

  // OpenAI streams a call's id and name once and its arguments in pieces, each fragment
  // carrying the call's index.
  function addToolFragments(reply, fragments) {
    for (const fragment of fragments) {
      if (!fragment || typeof fragment !== "object") continue;
      const position = Number.isInteger(fragment.index) ? fragment.index : reply.calls.size;
      const call = toolCallView(reply, position);
      if (typeof fragment.id === "string") call.id = fragment.id;
      const fn = fragment.function || {};
      if (typeof fn.name === "string") call.name += fn.name;
      if (typeof fn.arguments === "string") call.arguments += fn.arguments;
      call.nameEl.textContent = call.name;
      call.idEl.textContent = call.id;
      call.argsEl.textContent = call.arguments;
    }
  }

  function prettyJson(text) {
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch (err) {
      return text;
    }
  }

  const FINISH_NOTES = {
    tool_calls: "The model asked to call a tool.",
    length: "The reply stopped at the length limit.",
    content_filter: "The reply was stopped by the content guard.",
  };

  function finishReply(reply) {
    for (const call of reply.calls.values()) call.argsEl.textContent = prettyJson(call.arguments);
    if (reply.calls.size && !reply.body.textContent) reply.body.remove();
    const note = FINISH_NOTES[reply.finish];
    if (note) addLine(reply.item, "turn-note", note);
  }

  function handleEvent(data, reply) {
    if (data === "[DONE]") return;
    const event = JSON.parse(data);
    if (event.error) {
      reply.error = event.error.message;
      errorBox.textContent = event.error.message;
      return;
    }
    if (!reply.id && typeof event.id === "string") reply.id = event.id;
    if (event.conversation_id) conversationId = String(event.conversation_id);
    for (const choice of event.choices || []) {
      // The playground asks for one choice.
      if (choice.index && choice.index !== 0) continue;
      const delta = choice.delta || {};
      if (delta.content) reply.body.textContent += delta.content;
      if (Array.isArray(delta.tool_calls)) addToolFragments(reply, delta.tool_calls);
      if (choice.finish_reason) reply.finish = choice.finish_reason;
    }
  }

  // No credit: the API's message, what to do about it, and the message kept to send again.
  function showNoCredit(error, question, reply, message) {
    const text = (error ? error.message : "Your balance is used up.") + " " + creditsContact;
    errorBox.textContent = text;
    question.classList.add("turn-unsent");
    addLine(question, "turn-meta", "Not sent: no credit.");
    reply.item.classList.add("turn-error");
    reply.item.querySelector(".who").textContent = "Nova";
    reply.body.textContent = text;
    if (creditNote) creditNote.hidden = false;
    if (!input.value) input.value = message;
  }

  function showRequestError(body, status, question, reply, message) {
    const error = body && body.error;
    if (status === 402) {
      showNoCredit(error, question, reply, message);
      return;
    }
    errorBox.textContent = error ? error.message : "Request failed (" + status + ")";
    markInvalid(error && error.param);
    // Refused before anything was generated: nothing was said, so give the text back to fix
    // (a field, say) and send again.
    question.remove();
    reply.item.remove();
    if (!input.value) input.value = message;
  }

  function buildPayload(message) {
    const chosen = selection();
    const payload = { message: message };
    if (chosen.kind === "persona") {
      payload.persona_id = Number(chosen.value);
      if (modelPicker.value) payload.model = modelPicker.value;
    } else {
      payload.model = chosen.value;
    }
    if (conversationId) payload.conversation_id = Number(conversationId);
    const temperature = numberField(temperatureInput, false);
    if (temperature !== undefined) payload.temperature = temperature;
    const maxTokens = numberField(maxTokensInput, true);
    if (maxTokens !== undefined) payload.max_tokens = maxTokens;
    // Sent as typed: the server parses and checks it by the API's rules.
    if (toolsInput.value.trim()) payload.tools = toolsInput.value;
    return payload;
  }

  async function readStream(response, reply) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value: chunk, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(chunk, { stream: true });
      let boundary;
      while ((boundary = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary + 2);
        if (block.startsWith("data: ")) handleEvent(block.slice(6), reply);
      }
    }
  }

  function announceReply(reply) {
    if (!announcer) return;
    const parts = [];
    if (reply.body.isConnected && reply.body.textContent) parts.push(reply.body.textContent);
    for (const line of reply.item.querySelectorAll(".tool-call-head, .turn-note")) {
      parts.push(line.textContent);
    }
    announcer.textContent = "Reply: " + parts.join(" ");
  }

  // After the stream (finished, failed or stopped): the reply's summary from the server.
  async function settleReply(reply, stopped) {
    const status = reply.id ? await replyStatus(reply.id) : null;
    if (status && status.conversation_id) conversationId = String(status.conversation_id);
    const summary = status && status.reply;
    if (summary) {
      if (summary.html && reply.body.isConnected) showMarkdown(reply.body, summary.html);
      addLine(reply.item, "turn-meta", formatTokens(summary));
    } else if (stopped) {
      addLine(reply.item, "turn-meta", "Nothing was generated, so nothing was charged.");
    }
    if (stopped) addLine(reply.item, "turn-note", "Stopped: you are charged only for what was generated.");
    // A reply that says nothing at all says why.
    if (reply.body.isConnected && !reply.body.textContent && !reply.calls.size) {
      reply.body.textContent = reply.error || (stopped ? "(stopped before any text)" : "(no text)");
      if (reply.error) reply.item.classList.add("turn-error");
    }
    announceReply(reply);
    if (conversationId) lockTarget();
    const balance = status || (await conversationStatus());
    if (balance) showBalance(balance);
  }

  async function send() {
    const message = input.value;
    if (busy || !message.trim()) return;
    errorBox.textContent = "";
    const payload = buildPayload(message);
    setBusy(true);
    const question = addTurn("user", message).parentElement;
    input.value = "";
    const reply = newReply(addTurn("assistant", ""));
    controller = new AbortController();
    let streamed = false;
    let stopped = false;
    try {
      const response = await fetch(root.dataset.chatUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify(payload),
        signal: controller.signal,
      });
      if (!response.ok) {
        const body = await response.json().catch(() => null);
        showRequestError(body, response.status, question, reply, message);
        return;
      }
      markInvalid(null);
      reply.id = response.headers.get("X-Playground-Reply") || "";
      streamed = true;
      await readStream(response, reply);
      finishReply(reply);
    } catch (err) {
      if (err && err.name === "AbortError") {
        stopped = true;
        finishReply(reply);
      } else {
        errorBox.textContent = "Connection lost: " + err;
        if (!reply.body.textContent) reply.body.textContent = "(connection lost)";
      }
    } finally {
      controller = null;
      setBusy(false);
      input.focus();
    }
    if (streamed || stopped) await settleReply(reply, stopped);
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    send();
  });

  // Enter sends; Shift+Enter is a new line (and Enter confirming an IME composition is left
  // to the IME).
  input.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.shiftKey || event.isComposing || event.keyCode === 229) return;
    event.preventDefault();
    send();
  });

  stopButton.addEventListener("click", function () {
    if (controller) controller.abort();
  });

  target.addEventListener("change", syncModelPicker);
  syncModelPicker();
})();
