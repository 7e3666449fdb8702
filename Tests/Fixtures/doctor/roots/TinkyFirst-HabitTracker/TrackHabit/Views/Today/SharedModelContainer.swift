// Fixture (written for doctor's tests): the store set-up the app and its widget both compile,
// SwiftData's `.automatic` in an App Group folder.
import Foundation
import SwiftData

@MainActor
final class SharedModelContainer {
    static let shared = SharedModelContainer()
    let container: ModelContainer

    private init() {
        let url = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.trackhabit.shared")?
            .appendingPathComponent("TrackHabit.sqlite")
        let configuration = ModelConfiguration(schema: Schema([]), url: url!, cloudKitDatabase: .automatic)
        container = try! ModelContainer(for: Schema([]), configurations: [configuration])
    }
}
