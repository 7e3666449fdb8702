import ProjectDescription
import ProjectDescriptionHelpers

let project = appFrameworkProject(
    name: "AppResources",
    product: .framework,
    includeResources: true
)
