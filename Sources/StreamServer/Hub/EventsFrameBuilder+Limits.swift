import StreamProtocol

extension EventsFrameBuilder {
    /// Whether an event of `payloadBytes` must wait for the next frame: this one holds
    /// `limits.maximumEventsPerFrame` events, or would pass `limits.maximumEventBytesPerFrame` with
    /// it. A frame with no event takes any event, so a large one goes alone.
    func isFull(adding payloadBytes: Int, limits: ServerLimits) -> Bool {
        count > 0 && (count >= limits.maximumEventsPerFrame || self.payloadBytes + payloadBytes > limits.maximumEventBytesPerFrame)
    }
}
