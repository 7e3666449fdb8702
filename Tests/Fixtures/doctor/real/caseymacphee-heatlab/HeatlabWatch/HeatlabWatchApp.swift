












    // Local-only container with OutboxItem for reliable sync
    let modelContainer: ModelContainer = {





        let config = ModelConfiguration(





            return try ModelContainer(for: schema, configurations: [config])

            fatalError("Could not create Watch ModelContainer: \(error)")






















                    let modelContext = modelContainer.mainContext



        .modelContainer(modelContainer)


