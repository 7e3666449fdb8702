






































        let appState = AppState(configuration: configuration)
        appState.containerFallbackReason = fallbackReason
        _appState = State(initialValue: appState)

        BackgroundTaskManager.register(modelContainer: modelContainer)
    }

    private static func makeContainerWithFallback(
        configuration: AppConfiguration,
        fallbackReason: inout AppState.ContainerFallbackReason?
    ) -> ModelContainer? {
        // Tier 1: Try with the requested CloudKit configuration
        do {
            return try makeModelContainer(
                cloudKitEnabled: configuration.cloudKitEnabled,
                cloudKitContainerIdentifier: configuration.cloudKitContainerIdentifier
            )
        } catch {
            appLogger.error("ModelContainer creation failed: \(error, privacy: .public)")

            // Tier 2: If CloudKit was enabled, retry without it
            if configuration.cloudKitEnabled {
                fallbackReason = .cloudKitUnavailable(error)
                do {
                    appLogger.notice("Retrying ModelContainer without CloudKit")
                    return try makeModelContainer(cloudKitEnabled: false)
                } catch {
                    appLogger.error("Local-only ModelContainer also failed: \(error, privacy: .public)")
                    fallbackReason = .diskCorrupted(error)
                }
            } else {



































































































































