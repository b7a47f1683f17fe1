// Nova playground: POST the message, read the SSE stream with fetch, append text safely.
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

  function handleEvent(data, replyBody) {
    if (data === "[DONE]") return;
    const event = JSON.parse(data);
    if (event.error) {
      errorBox.textContent = event.error.message;
      return;
    }
    if (event.conversation_id) conversationId = String(event.conversation_id);
    for (const choice of event.choices || []) {
      if (choice.delta && choice.delta.content) replyBody.textContent += choice.delta.content;
    }
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
    addTurn("user", message);
    input.value = "";
    const replyBody = addTurn("assistant", "");
    try {
      const response = await fetch(root.dataset.chatUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify(payload),
      });
      if (!response.ok) {
        const body = await response.json().catch(() => null);
        errorBox.textContent = body && body.error ? body.error.message : "Request failed (" + response.status + ")";
        replyBody.parentElement.remove();
        return;
      }
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
          if (block.startsWith("data: ")) handleEvent(block.slice(6), replyBody);
        }
      }
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
