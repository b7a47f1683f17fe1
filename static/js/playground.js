// Nova playground: POST the message (and the optional tools definition), read the SSE stream
// with fetch, append text and tool calls safely (textContent only, never HTML).
(function () {
  "use strict";
  const root = document.getElementById("playground");
  if (!root) return;
  const form = document.getElementById("pg-form");
  const input = document.getElementById("pg-message");
  const target = document.getElementById("pg-target");
  const transcript = document.getElementById("pg-transcript");
  const sendButton = document.getElementById("pg-send");
  const errorBox = document.getElementById("pg-error");
  const toolsInput = document.getElementById("pg-tools");
  const toolsBox = document.getElementById("pg-tools-box");
  const csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;
  let conversationId = root.dataset.conversation || "";

  function addTurn(role, text) {
    const item = document.createElement("li");
    item.className = "turn turn-" + role;
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = role;
    const body = document.createElement("div");
    body.className = "text";
    body.textContent = text;
    item.append(who, body);
    transcript.append(item);
    return body;
  }

  async function refreshStatus() {
    if (!conversationId) return;
    const response = await fetch(root.dataset.statusUrl + "?conversation=" + encodeURIComponent(conversationId));
    if (!response.ok) return;
    const status = await response.json();
    document.getElementById("pg-balance").textContent = "$" + status.balance;
    if (status.last_cost !== null) document.getElementById("pg-cost").textContent = "$" + status.last_cost;
  }

  // The reply being streamed: its text element, and its tool calls assembled per index.
  function newReply(body) {
    return { item: body.parentElement, body: body, calls: new Map(), list: null, finish: null };
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
    if (note) {
      const line = document.createElement("p");
      line.className = "turn-note";
      line.textContent = note;
      reply.item.append(line);
    }
  }

  function handleEvent(data, reply) {
    if (data === "[DONE]") return;
    const event = JSON.parse(data);
    if (event.error) {
      errorBox.textContent = event.error.message;
      return;
    }
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

  function showRequestError(body, status) {
    const error = body && body.error;
    errorBox.textContent = error ? error.message : "Request failed (" + status + ")";
    const aboutTools = Boolean(error && typeof error.param === "string" && error.param.startsWith("tools"));
    toolsInput.setAttribute("aria-invalid", aboutTools ? "true" : "false");
    if (aboutTools) toolsBox.open = true;
  }

  form.addEventListener("submit", async function (event) {
    event.preventDefault();
    const message = input.value;
    if (!message.trim()) return;
    errorBox.textContent = "";
    sendButton.disabled = true;
    const [kind, value] = target.value.split(/:(.*)/s);
    const payload = { message: message };
    if (kind === "persona") payload.persona_id = Number(value);
    else payload.model = value;
    if (conversationId) payload.conversation_id = Number(conversationId);
    // Sent as typed: the server parses and checks it by the API's rules.
    if (toolsInput.value.trim()) payload.tools = toolsInput.value;
    const question = addTurn("user", message).parentElement;
    input.value = "";
    const reply = newReply(addTurn("assistant", ""));
    try {
      const response = await fetch(root.dataset.chatUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify(payload),
      });
      if (!response.ok) {
        const body = await response.json().catch(() => null);
        showRequestError(body, response.status);
        // Refused before anything was generated: nothing was said, so give the text back to
        // fix (the tools box, say) and send again.
        question.remove();
        reply.item.remove();
        if (!input.value) input.value = message;
        return;
      }
      toolsInput.setAttribute("aria-invalid", "false");
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
      finishReply(reply);
      target.disabled = true;
      await refreshStatus();
    } catch (err) {
      errorBox.textContent = "Connection lost: " + err;
    } finally {
      sendButton.disabled = false;
      input.focus();
    }
  });
})();
