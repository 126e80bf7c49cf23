/// A handle on a state listener: cancel it, or let it go, to stop listening.
@MainActor
public final class StateSubscription {
    private var cancellation: (@MainActor () -> Void)?

    init(cancel: @escaping @MainActor () -> Void) {
        cancellation = cancel
    }

    /// Stops the listener. Calling it again does nothing.
    public func cancel() {
        cancellation?()
        cancellation = nil
    }

    isolated deinit {
        cancel()
    }
}
