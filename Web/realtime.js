// A small Pusher Channels (protocol 7) client: connects, answers and sends heartbeats,
// reconnects with exponential backoff and jitter, signs in (pusher:signin) and subscribes to
// private channels with signatures from the chat's auth endpoints. Events reach `onEvent`.

const PONG_TIMEOUT_MS = 30000;

/** Connection states, as shown in the banner. */
export const State = Object.freeze({
  CONNECTING: "connecting",
  CONNECTED: "connected",
  RECONNECTING: "reconnecting",
  OFFLINE: "offline",
  FAILED: "failed",
});

export class Realtime {
  /**
   * @param {string} url the WebSocket URL (`/app/{key}?protocol=7…`)
   * @param {object} hooks `authorize(socketID, channel)` → auth, `signIn(socketID)` → {auth, user_data},
   *   `onEvent(channel, event, data)`, `onState(state, detail)`, `onConnected(socketID)`, `onSubscribed(channel)`
   */
  constructor(url, hooks) {
    this.url = url;
    this.hooks = hooks;
    this.channels = new Map(); // name -> {subscribed}
    this.attempt = 0;
    this.state = State.CONNECTING;
    this.socket = null;
    this.socketID = null;
    this.stopped = false;
    this.userID = null;
    this.onOnline = () => this.reconnectNow();
    this.onOffline = () => this.goOffline();
    window.addEventListener("online", this.onOnline);
    window.addEventListener("offline", this.onOffline);
  }

  start() {
    if (!navigator.onLine) return this.goOffline();
    this.open();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.clearTimers();
    window.removeEventListener("online", this.onOnline);
    window.removeEventListener("offline", this.onOffline);
    if (this.socket) this.socket.close(1000);
    this.socket = null;
  }

  setState(state, detail) {
    this.state = state;
    this.hooks.onState(state, detail);
  }

  open() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.setState(this.attempt === 0 ? State.CONNECTING : State.RECONNECTING);
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onmessage = (message) => { if (socket === this.socket) this.received(message.data); };
    socket.onclose = (event) => { if (socket === this.socket) this.closed(event.code); };
  }

  /** The server closed, or the network did: decide by the Pusher close code ranges. */
  closed(code) {
    this.clearTimers();
    this.socket = null;
    this.socketID = null;
    for (const channel of this.channels.values()) channel.subscribed = false;
    if (this.stopped) return;
    if (!navigator.onLine) return this.goOffline();
    if (code >= 4000 && code < 4100) {
      this.setState(State.FAILED, code === 4009 ? "signed out by the server" : `refused (${code})`);
      return;
    }
    this.attempt += 1;
    const quick = code >= 4200 && code < 4300;
    const ceiling = quick ? 1000 : Math.min(15000, 500 * 2 ** Math.min(this.attempt, 5));
    const delay = Math.round(ceiling / 2 + Math.random() * ceiling / 2);
    this.setState(State.RECONNECTING, delay);
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  goOffline() {
    clearTimeout(this.retryTimer);
    this.clearTimers();
    const socket = this.socket;
    this.socket = null;
    if (socket) socket.close(1000);
    for (const channel of this.channels.values()) channel.subscribed = false;
    this.setState(State.OFFLINE);
  }

  reconnectNow() {
    if (this.stopped || this.state === State.CONNECTED || this.state === State.FAILED) return;
    this.attempt = Math.max(1, this.attempt);
    this.open();
  }

  send(event, data, channel) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    const message = { event, data };
    if (channel) message.channel = channel;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Any message proves the connection alive; after `activity_timeout` of silence we ping. */
  touch() {
    clearTimeout(this.activityTimer);
    clearTimeout(this.pongTimer);
    this.activityTimer = setTimeout(() => {
      this.send("pusher:ping", {});
      this.pongTimer = setTimeout(() => { if (this.socket) this.socket.close(4201); }, PONG_TIMEOUT_MS);
    }, this.activityTimeout * 1000);
  }

  clearTimers() {
    clearTimeout(this.activityTimer);
    clearTimeout(this.pongTimer);
  }

  received(text) {
    let message;
    try { message = JSON.parse(text); } catch { return; }
    let data = message.data;
    if (typeof data === "string") {
      try { data = JSON.parse(data); } catch { /* plain string data */ }
    }
    this.touch();
    switch (message.event) {
      case "pusher:connection_established":
        this.socketID = data.socket_id;
        this.activityTimeout = Math.max(10, Math.min(120, data.activity_timeout || 120));
        this.attempt = 0;
        this.touch();
        this.setState(State.CONNECTED);
        this.established();
        return;
      case "pusher:ping":
        this.send("pusher:pong", {});
        return;
      case "pusher:pong":
        return;
      case "pusher:error":
        return;
      case "pusher:signin_success":
        if (this.userID) this.subscribe("#server-to-user-" + this.userID);
        return;
      case "pusher_internal:subscription_succeeded": {
        const channel = this.channels.get(message.channel);
        if (channel) channel.subscribed = true;
        if (this.hooks.onSubscribed) this.hooks.onSubscribed(message.channel);
        return;
      }
      case "pusher:subscription_error":
        this.channels.delete(message.channel);
        return;
      default:
        if (message.event.startsWith("pusher")) return;
        this.hooks.onEvent(message.channel, message.event, data);
    }
  }

  async established() {
    const socketID = this.socketID;
    try {
      const signIn = await this.hooks.signIn(socketID);
      if (socketID !== this.socketID) return;
      this.userID = JSON.parse(signIn.user_data).id;
      this.send("pusher:signin", signIn);
    } catch { /* the room channels still work without the personal one */ }
    for (const name of this.channels.keys()) {
      if (!name.startsWith("#")) this.authorizeAndSubscribe(name, socketID);
    }
    this.hooks.onConnected(socketID);
  }

  /** Subscribes now (when connected) and after every reconnect. */
  subscribe(name) {
    if (!this.channels.has(name)) this.channels.set(name, { subscribed: false });
    if (!this.socketID) return;
    if (name.startsWith("#")) this.send("pusher:subscribe", { channel: name, auth: "" });
    else this.authorizeAndSubscribe(name, this.socketID);
  }

  async authorizeAndSubscribe(name, socketID) {
    try {
      const auth = await this.hooks.authorize(socketID, name);
      if (socketID === this.socketID && this.channels.has(name)) this.send("pusher:subscribe", { channel: name, auth });
    } catch {
      this.channels.delete(name); // not a member (any more)
    }
  }

  unsubscribe(name) {
    if (this.channels.delete(name)) this.send("pusher:unsubscribe", { channel: name });
  }

  isSubscribed(name) {
    const channel = this.channels.get(name);
    return !!(channel && channel.subscribed);
  }
}
