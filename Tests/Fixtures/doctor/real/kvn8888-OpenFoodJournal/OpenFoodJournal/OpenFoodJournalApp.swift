







    private let modelContainer: ModelContainer








        let config: ModelConfiguration

            // Tests use in-memory store without CloudKit
            config = ModelConfiguration(isStoredInMemoryOnly: true)

            // Production: sync via CloudKit private database
            config = ModelConfiguration(
                cloudKitDatabase: .private("iCloud.k3vnc.OpenFoodJournal")


        let container: ModelContainer

            container = try ModelContainer(
                for: NutritionEntry.self, DailyLog.self, SavedFood.self, TrackedContainer.self, Preferences.self,



            fatalError("Failed to create ModelContainer: \(error)")

        modelContainer = container
        _nutritionStore = State(initialValue: NutritionStore(modelContext: container.mainContext))


        _ = Preferences.current(in: container.mainContext)









                    .modelContainer(modelContainer)













                    .modelContainer(modelContainer)









