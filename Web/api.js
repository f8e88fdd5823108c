// The chat REST API over fetch. The token lives in memory only (never in a URL or in
// storage); a 401 asks the token source for a fresh one once; 429 waits for Retry-After.

/** An API refusal with the server's stable code and readable message. */
export class ApiError extends Error {
  constructor(status, code, message, retryAfter) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

/** A request that never reached the server (offline, server down). */
export class NetworkError extends Error {}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds until a JWT's `exp`, or null when it has none. */
function secondsLeft(token) {
  try {
    const payload = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
    return typeof payload.exp === "number" ? payload.exp - Date.now() / 1000 : null;
  } catch {
    return null;
  }
}

export class Api {
  /** `fetchToken(force)` resolves to a user token; `appID` goes in X-Parley-App. */
  constructor(appID, fetchToken) {
    this.appID = appID;
    this.fetchToken = fetchToken;
    this.token = null;
  }

  async currentToken(force = false) {
    if (!force && this.token) {
      const left = secondsLeft(this.token);
      if (left === null || left > 60) return this.token;
    }
    this.token = await this.fetchToken(true);
    return this.token;
  }

  headers(token, extra) {
    const headers = { "X-Parley-App": this.appID, ...extra };
    if (token) headers.Authorization = "Bearer " + token;
    return headers;
  }

  /** Calls `method path` with an optional JSON body; resolves to the parsed JSON (or null for 204). */
  async call(method, path, body, { retries = 2, auth = true } = {}) {
    for (let attempt = 0; ; attempt++) {
      const token = auth ? await this.currentToken(attempt > 0 && this.lastStatus === 401) : null;
      const init = { method, headers: this.headers(token, body === undefined ? {} : { "Content-Type": "application/json" }) };
      if (body !== undefined) init.body = JSON.stringify(body);
      let answer;
      try {
        answer = await fetch(path, init);
      } catch (error) {
        throw new NetworkError(String(error && error.message || error));
      }
      this.lastStatus = answer.status;
      if (answer.ok) return answer.status === 204 ? null : answer.json();
      const error = await ApiError.from(answer);
      if (attempt < retries && answer.status === 401 && auth) continue;
      if (attempt < retries && answer.status === 429) {
        await sleep(Math.min(10, error.retryAfter || 1) * 1000);
        continue;
      }
      throw error;
    }
  }

  get(path) { return this.call("GET", path); }
  post(path, body) { return this.call("POST", path, body === undefined ? {} : body); }
  put(path, body) { return this.call("PUT", path, body); }
  patch(path, body) { return this.call("PATCH", path, body); }
  del(path) { return this.call("DELETE", path); }

  /** Uploads a file (named after its file name) into a room with progress (fetch has no upload progress, XHR has). */
  async upload(roomID, file, onProgress) {
    const token = await this.currentToken();
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open("POST", `/v1/rooms/${encodeURIComponent(roomID)}/attachments?name=${encodeURIComponent(file.name || "")}`);
      for (const [name, value] of Object.entries(this.headers(token, { "Content-Type": file.type || "application/octet-stream" }))) {
        xhr.setRequestHeader(name, value);
      }
      xhr.upload.onprogress = (event) => { if (event.lengthComputable) onProgress(event.loaded / event.total); };
      xhr.onerror = () => reject(new NetworkError("upload failed"));
      xhr.onload = () => {
        let body = null;
        try { body = JSON.parse(xhr.responseText); } catch { /* not JSON */ }
        if (xhr.status >= 200 && xhr.status < 300) resolve(body);
        else reject(ApiError.fromBody(xhr.status, body, Number(xhr.getResponseHeader("Retry-After")) || null));
      };
      xhr.send(file);
    });
  }
}

ApiError.from = async function (answer) {
  let body = null;
  try { body = await answer.json(); } catch { /* not JSON */ }
  return ApiError.fromBody(answer.status, body, Number(answer.headers.get("Retry-After")) || null);
};

ApiError.fromBody = function (status, body, retryAfter) {
  const error = body && body.error;
  return new ApiError(status, error && error.code || "http_" + status, error && error.message || `the server answered ${status}`, retryAfter);
};

/** Signs in by name on a `--dev` server: creates (or finds) the user, then asks for its token. */
export async function devSignIn(appID, name) {
  const api = new Api(appID, null);
  const user = await api.call("POST", "/v1/dev/users", { name }, { auth: false });
  return { user, fetchToken: async () => (await api.call("POST", "/v1/dev/token", { user_id: user.id }, { auth: false })).token };
}

/** Signs in through the app's backend: `POST tokenURL {"user_id"}` answers `{"token"}`. */
export function tokenURLSignIn(tokenURL, userID) {
  return async () => {
    let answer;
    try {
      answer = await fetch(tokenURL, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ user_id: userID }) });
    } catch (error) {
      throw new NetworkError("the token service cannot be reached");
    }
    if (!answer.ok) throw new ApiError(answer.status, "token_url", `the token service answered ${answer.status}`);
    const body = await answer.json();
    const token = body.token || body.access_token;
    if (!token) throw new ApiError(answer.status, "token_url", "the token service sent no token");
    return token;
  };
}
