extension HTTPServerConnectionStateMachine {
    // MARK: Answers from the driver

    /// The complete answer for `slot`. Ignored when the slot is answered already or gone.
    public mutating func respond(slot: Int, _ response: Response, now: UInt64) -> [Action] {
        var actions: [Action] = []
        complete(slot: slot, response, now: now, into: &actions)
        return actions
    }

    /// Starts a streamed (chunked) answer for `slot`.
    public mutating func startStream(slot id: Int, head: HTTPResponseHead) -> [Action] {
        guard let index = slotIndex(id), !slots[index].finished, !slots[index].streaming else { return [] }
        slots[index].streaming = true
        slots[index].streamStatus = head.status
        let slot = slots[index]
        let keepAlive = slot.keepAlive && (id < nextSlot - 1 || !stopped)
        slots[index].keepAlive = keepAlive
        let decorated = decorate(head)
        var actions: [Action] = []
        if slot.version == .http1_0 {
            slots[index].collected = []
            slots[index].streamHead = decorated
            return actions
        }
        if slot.headRequest {
            emit(
                slot: id,
                SharedBytes(
                    HTTPResponseWriter.response(
                        decorated, keepAlive: keepAlive, requestVersion: slot.version,
                        headRequest: true)), into: &actions)
            slots[index].collected = []  // swallow the body
            return actions
        }
        emit(
            slot: id, SharedBytes(HTTPResponseWriter.chunkedHead(decorated, keepAlive: keepAlive, requestVersion: slot.version)),
            into: &actions)
        return actions
    }

    /// One chunk of the streamed answer of `slot`.
    public mutating func streamChunk(slot id: Int, _ bytes: [UInt8]) -> [Action] {
        guard let index = slotIndex(id), slots[index].streaming, !slots[index].finished else { return [] }
        if !slots[index].headRequest { slots[index].bytesOut += bytes.count }
        if slots[index].collected != nil {
            if !slots[index].headRequest { slots[index].collected!.append(contentsOf: bytes) }
            return []
        }
        var actions: [Action] = []
        emit(slot: id, SharedBytes(HTTPResponseWriter.chunk(bytes)), into: &actions)
        return actions
    }

    /// The end of the streamed answer of `slot`.
    public mutating func finishStream(slot id: Int, trailers: HTTPHeaders, now: UInt64) -> [Action] {
        guard let index = slotIndex(id), slots[index].streaming, !slots[index].finished else { return [] }
        let slot = slots[index]
        var actions: [Action] = []
        if let collected = slot.collected {
            if let head = slot.streamHead {
                emit(
                    slot: id,
                    SharedBytes(
                        HTTPResponseWriter.response(
                            head, body: collected, keepAlive: slot.keepAlive,
                            requestVersion: slot.version)), into: &actions)
            }
        } else {
            emit(slot: id, SharedBytes(HTTPResponseWriter.finalChunk(trailers: trailers)), into: &actions)
        }
        actions.append(.answered(slot: id, status: slot.streamStatus, bytesIn: slot.bytesIn, bytesOut: slot.bytesOut))
        markFinished(index: slotIndex(id), now: now, into: &actions)
        return actions
    }

    /// The driver refused the upgrade of ``Action/offerUpgrade(slot:head:body:)``: answer
    /// this; the connection closes after it.
    public mutating func upgradeRefused(slot: Int, _ response: Response, now: UInt64) -> [Action] {
        respond(slot: slot, response, now: now)
    }

    /// The driver accepted the upgrade of ``Action/offerUpgrade(slot:head:body:)``: `response`
    /// (the `101 Switching Protocols`) is written and the socket handed over with the bytes
    /// that followed the request.
    public mutating func upgradeAccepted(slot: Int, response: [UInt8], now: UInt64) -> [Action] {
        guard let first = slots.first, first.id == slot else { return [] }
        slots.removeAll()
        let leftover = parser.takeUnparsedBytes()
        return [
            .answered(slot: slot, status: HTTPStatus(101), bytesIn: first.bytesIn, bytesOut: 0),
            .write(SharedBytes(response)), .upgrade(leftover: leftover)
        ]
    }

    // MARK: Slots (answers in request order)

    mutating func openSlot(for head: HTTPRequestHead?) -> Int {
        let id = nextSlot
        nextSlot += 1
        slots.append(
            Slot(
                id: id, headRequest: head?.method == .HEAD, version: head?.version ?? .http1_1,
                keepAlive: head?.keepAlive ?? false))
        return id
    }

    func slotIndex(_ id: Int) -> Int? {
        // Slots are in id order and few (bounded by the pipeline depth).
        slots.firstIndex { $0.id == id }
    }

    /// Answers `slot` with `Connection: close` and reads no further requests.
    mutating func answerAndStop(slot: Int, _ response: Response, now: UInt64, into actions: inout [Action]) {
        stopped = true
        current = nil
        if let index = slotIndex(slot) { slots[index].keepAlive = false }
        complete(slot: slot, response, now: now, into: &actions)
    }

    mutating func complete(slot id: Int, _ response: Response, now: UInt64, into actions: inout [Action]) {
        guard let index = slotIndex(id), !slots[index].finished, !slots[index].streaming else { return }
        let slot = slots[index]
        // The last request read before stopping carries `Connection: close`.
        let keepAlive = slot.keepAlive && (id < nextSlot - 1 || !stopped)
        slots[index].keepAlive = keepAlive
        let bytes = HTTPResponseWriter.response(
            decorate(response.head), body: response.body, keepAlive: keepAlive,
            requestVersion: slot.version, headRequest: slot.headRequest)
        emit(slot: id, SharedBytes(bytes), into: &actions)
        actions.append(
            .answered(
                slot: id, status: response.head.status, bytesIn: slot.bytesIn,
                bytesOut: slot.headRequest ? 0 : response.body.count))
        markFinished(index: slotIndex(id), now: now, into: &actions)
    }

    func decorate(_ head: HTTPResponseHead) -> HTTPResponseHead {
        guard let name = configuration.serverName, !head.headers.contains("Server") else { return head }
        var head = head
        head.headers.add("Server", name)
        return head
    }

    /// Writes bytes for a slot now if it is the oldest one, else keeps them for later.
    mutating func emit(slot id: Int, _ bytes: SharedBytes, into actions: inout [Action]) {
        guard let index = slotIndex(id) else { return }
        if index == 0 {
            actions.append(.write(bytes))
        } else {
            slots[index].buffered.append(bytes)
        }
    }

    mutating func markFinished(index: Int?, now: UInt64, into actions: inout [Action]) {
        guard let index else { return }
        slots[index].finished = true
        if index == 0 { advance(now: now, into: &actions) }
    }

    /// Retires finished slots from the front, releasing the next one's buffered output,
    /// and reads on when the pipeline has room again.
    mutating func advance(now: UInt64, into actions: inout [Action]) {
        while let first = slots.first, first.finished {
            slots.removeFirst()
            if !first.keepAlive {
                stopped = true
                slots.removeAll()
                actions.append(.close)
                return
            }
            guard !slots.isEmpty else { break }
            for chunk in slots[0].buffered { actions.append(.write(chunk)) }
            slots[0].buffered.removeAll()
        }
        if slots.isEmpty && closeWhenIdle {
            actions.append(.close)
            return
        }
        offerUpgradeIfReady(into: &actions)
        if readPaused && slots.count < configuration.maxPipelinedRequests {
            readPaused = false
            actions.append(.resumeReading)
            if !processing {
                processing = true
                readRequests(now: now, into: &actions)
            }
        }
    }

    mutating func offerUpgradeIfReady(into actions: inout [Action]) {
        guard let upgrade = pendingUpgrade, slots.count == 1, slots[0].id == upgrade.slot else { return }
        pendingUpgrade = nil
        actions.append(.offerUpgrade(slot: upgrade.slot, head: upgrade.head, body: upgrade.body))
    }
}
