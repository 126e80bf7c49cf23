import Foundation
import TodoCore
import TodoTerminal

/// `todo ui` running: the terminal taken over, keys read as they come, and a
/// frame drawn after every change of `TodoState` (through `onChange`) or of
/// the view's own state, writing only the lines that changed.
///
/// Everything runs on the main actor, woken by the terminal (a key, a
/// resize), by a write to the database (`storageChanges`: another `todo`,
/// or a sync, changed the todos; without it, a check once a second), or by
/// the live sync; in between, nothing runs.
@MainActor
public final class TodoUIApp {
    private let device: TerminalDevice
    private let controller: TodoUIController
    private var writer: FrameWriter
    private var decoder = KeyDecoder()
    private var subscription: StateSubscription?
    private var sources: [any DispatchSourceProtocol] = []
    private var framePending = false
    private var keys: AsyncStream<[Key]>.Continuation?
    private let storageChanges: AsyncStream<Void>?
    private var tasks: [Task<Void, Never>] = []
    private var liveSubscription: StateSubscription?
    private var liveNudgePending = false
    /// Counts reads, so that a late Escape timeout does not flush newer input.
    private var readCount = 0

    /// How long a lone Escape waits for the rest of a sequence.
    static let escapeDelay = DispatchTimeInterval.milliseconds(30)
    /// How often another process's changes are looked for.
    static let changeCheckInterval = DispatchTimeInterval.seconds(1)

    public init(
        logic: TodoLogic, device: TerminalDevice, usesColor: Bool, lastSyncAt: String? = nil,
        makeSyncer: (@MainActor () throws -> any TodoSyncing)? = nil,
        live: LiveSync? = nil, storageChanges: AsyncStream<Void>? = nil
    ) {
        self.device = device
        self.storageChanges = storageChanges
        self.writer = FrameWriter(usesColor: usesColor)
        self.controller = TodoUIController(
            logic: logic, size: device.size, view: ViewState(lastSyncAt: lastSyncAt), makeSyncer: makeSyncer
        )
        controller.live = live
    }

    /// Runs until `q`, Ctrl-C or the end of input; the terminal is restored
    /// when it returns.
    public func run() async {
        device.enter()
        defer {
            for task in tasks { task.cancel() }
            liveSubscription?.cancel()
            for source in sources { source.cancel() }
            subscription?.cancel()
            device.restore()
        }
        subscription = controller.logic.state.onChange { [weak self] _ in self?.scheduleFrame() }
        controller.onViewChange = { [weak self] in self?.scheduleFrame() }
        await controller.start()
        drawFrame()
        await controller.refreshCounts()

        let (stream, continuation) = AsyncStream.makeStream(of: [Key].self)
        keys = continuation
        startSources()
        startLive()
        for await batch in stream {
            await controller.handle(batch)
            if controller.wantsToQuit { break }
        }
    }

    // MARK: - Drawing

    /// Draws once the current job is done: a key that changes the state
    /// several times makes one frame.
    private func scheduleFrame() {
        guard !framePending else { return }
        framePending = true
        DispatchQueue.main.async {
            MainActor.assumeIsolated { self.drawFrame() }
        }
    }

    private func drawFrame() {
        framePending = false
        let size = controller.size
        let lines = TodoView.render(TodoSnapshot(controller.logic.state), controller.view, size: size)
        let bytes = writer.update(to: lines, size: size)
        if !bytes.isEmpty { device.write(bytes) }
    }

    // MARK: - Waking up

    private func startSources() {
        let input = DispatchSource.makeReadSource(fileDescriptor: device.input, queue: .main)
        input.setEventHandler { MainActor.assumeIsolated { self.readKeys() } }

        let resize = DispatchSource.makeReadSource(fileDescriptor: device.resizeDescriptor(), queue: .main)
        resize.setEventHandler { MainActor.assumeIsolated { self.resized() } }

        sources = [input, resize]
        if storageChanges == nil {
            let timer = DispatchSource.makeTimerSource(queue: .main)
            timer.schedule(deadline: .now() + Self.changeCheckInterval, repeating: Self.changeCheckInterval, leeway: .milliseconds(100))
            timer.setEventHandler {
                Task { @MainActor in await self.controller.checkForChanges() }
            }
            sources.append(timer)
        }
        for source in sources { source.resume() }
    }

    /// Follows writes to the database, and runs the live sync.
    private func startLive() {
        let live = controller.live
        if let storageChanges {
            tasks.append(Task { [weak self] in
                for await _ in storageChanges {
                    guard let self else { return }
                    // Another process wrote (a `todo add`): shown, and sent if it is a change to send.
                    if await controller.checkForChanges() { await live?.localChangesMayHaveHappened() }
                }
            })
        }
        if let live {
            live.onChange = { [weak self] _ in await self?.controller.checkForChanges() }
            // The view's own changes: sent once the action that made them is done.
            liveSubscription = controller.logic.state.onChange { [weak self] _ in self?.localChangeMade() }
            tasks.append(Task { await live.run() })
        }
    }

    /// Asks the live sync to look for changes to send, once per turn of the main actor.
    private func localChangeMade() {
        guard !liveNudgePending, let live = controller.live else { return }
        liveNudgePending = true
        Task { [weak self] in
            self?.liveNudgePending = false
            await live.localChangesMayHaveHappened()
        }
    }

    private func readKeys() {
        guard let bytes = device.read() else {
            // End of input: nobody can type any more.
            keys?.yield([.control("c")])
            return
        }
        readCount += 1
        let batch = decoder.decode(bytes)
        if !batch.isEmpty { keys?.yield(batch) }
        if decoder.hasPendingInput {
            let read = readCount
            DispatchQueue.main.asyncAfter(deadline: .now() + Self.escapeDelay) {
                MainActor.assumeIsolated {
                    guard self.readCount == read else { return }
                    let flushed = self.decoder.flush()
                    if !flushed.isEmpty { self.keys?.yield(flushed) }
                }
            }
        }
    }

    private func resized() {
        device.resizeHandled()
        controller.size = device.size
        writer.invalidate()
        Task { @MainActor in
            // A taller screen needs more rows loaded.
            await controller.reloadAroundSelection()
            drawFrame()
        }
    }
}
