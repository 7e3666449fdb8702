import Foundation
import Testing
import TribeBoardTestSupport

/// The schedules operators copy (Templates/systemd, the crontab) do what their comments say:
/// the timer's "once at once after a missed run" holds only with `OnCalendar=` (systemd applies
/// `Persistent=` to calendar timers alone), read back by systemd's own parser, and every unit
/// starts the binary where the .deb installs it.
struct ScheduleTemplatesTests {
    static let templates = ReadmeTables.root.appendingPathComponent("Templates")

    static func settings(_ file: String) throws -> [(key: String, value: String)] {
        try String(contentsOf: templates.appendingPathComponent(file), encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && $0.contains("=") }
            .map { line in
                let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }
    }

    static func calendar() throws -> String {
        try #require(try settings("systemd/tribeboard-resync.timer").first { $0.key == "OnCalendar" }?.value,
                     "Persistent= applies to OnCalendar= only (systemd.timer(5))")
    }

    @Test func thePersistentTimerIsACalendarTimer() throws {
        let timer = try Self.settings("systemd/tribeboard-resync.timer")
        #expect(timer.contains { $0 == ("Persistent", "true") }, "a missed run runs once at boot")
        _ = try Self.calendar()
        #expect(!timer.contains { ["OnUnitActiveSec", "OnUnitInactiveSec", "OnBootSec"].contains($0.key) })
    }

    /// systemd's own parser reads the event as every 5 minutes (HH:MM:SS of its next elapses).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze"), "needs systemd-analyze"))
    func systemdReadsTheCalendarAsEveryFiveMinutes() throws {
        let parsed = try ProcessRunner.run("/usr/bin/systemd-analyze", ["calendar", "--iterations", "3", try Self.calendar()])
        #expect(parsed.status == 0, "systemd reads the calendar event: \(parsed.stderr)")
        let elapses = parsed.stdout.split(separator: "\n").filter { $0.contains("Next elapse:") || $0.contains("Iter. #") }
        let minutes = elapses.compactMap { line in
            line.split(separator: " ").first { $0.filter { $0 == ":" }.count == 2 }.flatMap { Int($0.split(separator: ":")[1]) }
        }
        #expect(minutes.count == 3 && zip(minutes, minutes.dropFirst()).allSatisfy { ($1 - $0 + 60) % 60 == 5 },
                "every 5 minutes: \(parsed.stdout)")
    }

    /// The .deb installs into /usr (scripts/build-deb.sh); the templates start that binary.
    @Test func theUnitAndTheCrontabStartTheInstalledBinary() throws {
        let build = try String(contentsOf: ReadmeTables.root.appendingPathComponent("scripts/build-deb.sh"), encoding: .utf8)
        #expect(build.contains("scripts/install-files.sh \"$root\" /usr "), "the .deb's prefix")
        let service = try Self.settings("systemd/tribeboard-resync.service")
        let start = try #require(service.first { $0.key == "ExecStart" }?.value)
        #expect(start.hasPrefix("/usr/bin/tribeboard resync "), "\(start)")
        let crontab = try String(contentsOf: Self.templates.appendingPathComponent("tribeboard-resync.crontab"), encoding: .utf8)
        let jobs = crontab.split(separator: "\n").filter { !$0.hasPrefix("#") && $0.hasPrefix("*") }
        #expect(!jobs.isEmpty && jobs.allSatisfy { $0.contains(" /usr/bin/tribeboard resync ") }, "\(jobs)")
    }
}
