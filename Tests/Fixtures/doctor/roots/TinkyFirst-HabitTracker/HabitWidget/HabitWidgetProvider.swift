// Fixture (written for doctor's tests): the widget reads the shared store.
import WidgetKit

struct HabitWidgetProvider {
    @MainActor func load() { _ = SharedModelContainer.shared.container }
}
