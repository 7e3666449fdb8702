import Testing
import TribeBoardDomain
@testable import TribeBoardCommands

/// `sheets --created-from/--created-to` as the store compares creation times: a bare day covers
/// the whole of it, to the last millisecond the store keeps, up to the last day of 9999.
struct SheetsDateBoundsTests {
    @Test func aBareDayCoversTheWholeDay() throws {
        let from = try SheetsCommand.storeTime(" 2026-11-01 ", endOfDay: false, option: "--created-from")
        let to = try SheetsCommand.storeTime("2026-11-01", endOfDay: true, option: "--created-to")
        #expect(from.text == "2026-11-01T00:00:00.000Z" && to.text == "2026-11-01T23:59:59.999Z")
        #expect(to.milliseconds - from.milliseconds == 86_399_999)
        let last = try SheetsCommand.storeTime("9999-12-31", endOfDay: true, option: "--created-to")
        #expect(last.milliseconds == Timestamp.supportedMilliseconds.upperBound)
    }

    @Test func aTimeIsTakenAsItIs() throws {
        let time = try SheetsCommand.storeTime("2026-11-01T08:00:00Z", endOfDay: true, option: "--created-to")
        #expect(time.text == "2026-11-01T08:00:00.000Z")
        #expect(throws: (any Error).self) { try SheetsCommand.storeTime("1969-12-31", endOfDay: false, option: "--created-from") }
    }
}
