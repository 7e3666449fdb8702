import Foundation
import Logging
import Synchronization
import TribeBoardSupport

/// Progress on stderr: a bar with rate and ETA on a terminal, a log line every few seconds
/// otherwise (cron mail and CI logs stay readable), nothing with -q.
final class ProgressDisplay: Sendable {
    enum Mode { case bar, logLines, silent }

    private let mode: Mode
    private let logger: Logger
    /// When the last line was shown; in log-line mode the first one waits a full interval, so
    /// that a short run prints none.
    private let lastShown: Mutex<ContinuousClock.Instant?>

    init(quiet: Bool, logger: Logger) {
        self.logger = logger
        if quiet {
            mode = .silent
        } else {
            mode = Terminal.isTerminal(.standardError) ? .bar : .logLines
        }
        lastShown = Mutex(mode == .logLines ? ContinuousClock.now : nil)
    }

    /// A phase, when the progress has one, is shown before the bar (migrate's "copying 3/4").
    func update(_ progress: WorkProgress) {
        let interval: Duration = mode == .bar ? .milliseconds(100) : .seconds(5)
        let due = lastShown.withLock { last -> Bool in
            let now = ContinuousClock.now
            if let last, now - last < interval { return false }
            last = now
            return true
        }
        guard due else { return }
        switch mode {
        case .silent: return
        case .bar:
            Terminal.showProgress((progress.phase.map { $0 + "  " } ?? "") + Self.bar(progress))
        case .logLines:
            var metadata: Logger.Metadata = [
                "rows": "\(progress.processed)/\(progress.total)",
                "rate": "\(Int(Self.rate(progress)))/s", "eta": "\(Self.eta(progress))"
            ]
            if let phase = progress.phase { metadata["phase"] = "\(phase)" }
            logger.notice("progress", metadata: metadata)
        }
    }

    func finish() {
        if mode == .bar { Terminal.clearProgressLine() }
    }

    static func bar(_ progress: WorkProgress, width: Int = 30) -> String {
        let fraction =
            progress.total > 0 ? min(Double(progress.processed) / Double(progress.total), 1) : 1
        let filled = Int(fraction * Double(width))
        let bar =
            String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        return String(
            format: "[%@] %3d%% %d/%d  %d/s  ETA %@  (%d failed)", bar, Int(fraction * 100),
            progress.processed, progress.total, Int(rate(progress)), eta(progress), progress.failed)
    }

    static func rate(_ progress: WorkProgress) -> Double {
        let seconds = progress.elapsed.seconds
        return seconds > 0 ? Double(progress.processed) / seconds : 0
    }

    static func eta(_ progress: WorkProgress) -> String {
        let rate = rate(progress)
        guard rate > 0 else { return "--:--" }
        let remaining = Int(Double(max(progress.total - progress.processed, 0)) / rate)
        return String(format: "%d:%02d", remaining / 60, remaining % 60)
    }
}
