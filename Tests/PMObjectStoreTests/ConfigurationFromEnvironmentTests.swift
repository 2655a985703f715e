import Testing
@testable import PMObjectStore

@Suite struct ConfigurationFromEnvironmentTests {
    private let keys = ["AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"]

    @Test func keysAloneMeanAWSInUSEast1() throws {
        let configuration = try S3Configuration.fromEnvironment(keys)
        #expect(configuration.endpoint == nil)
        #expect(configuration.region == "us-east-1")
        #expect(configuration.credentials == S3Credentials(accessKeyID: "AKIDEXAMPLE",
                                                           secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"))
    }

    @Test func regionSessionTokenAndEndpointAreRead() throws {
        let environment = keys.merging(["AWS_REGION": "eu-west-3", "AWS_SESSION_TOKEN": "token/123=",
                                        "AWS_ENDPOINT_URL": "http://127.0.0.1:8080/"]) { $1 }
        let configuration = try S3Configuration.fromEnvironment(environment)
        #expect(configuration.region == "eu-west-3")
        #expect(configuration.credentials.sessionToken == "token/123=")
        #expect(configuration.endpoint == "http://127.0.0.1:8080")
    }

    @Test func theS3SpecificEndpointWinsOverTheGeneralOne() throws {
        let environment = keys.merging(["AWS_ENDPOINT_URL": "http://general:1", "AWS_ENDPOINT_URL_S3": "https://s3.example.com"]) { $1 }
        #expect(try S3Configuration.fromEnvironment(environment).endpoint == "https://s3.example.com")
    }

    @Test func emptyValuesCountAsUnset() throws {
        let environment = keys.merging(["AWS_REGION": "", "AWS_SESSION_TOKEN": " ", "AWS_ENDPOINT_URL_S3": "",
                                        "AWS_ENDPOINT_URL": "http://fallback:9000"]) { $1 }
        let configuration = try S3Configuration.fromEnvironment(environment)
        #expect(configuration.region == "us-east-1")
        #expect(configuration.credentials.sessionToken == nil)
        #expect(configuration.endpoint == "http://fallback:9000")
    }

    @Test func missingKeysAreNamed() {
        #expect(throws: S3ConfigurationError("AWS_SECRET_ACCESS_KEY must be set to reach an S3 store")) {
            try S3Configuration.fromEnvironment(["AWS_ACCESS_KEY_ID": "AKID"])
        }
        #expect(throws: S3ConfigurationError("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set to reach an S3 store")) {
            try S3Configuration.fromEnvironment(["AWS_SECRET_ACCESS_KEY": ""])
        }
    }

    @Test(arguments: ["ftp://host", "127.0.0.1:9000", "http://", "http://user:pw@host", "http://host/?x=1", "http://:80"])
    func endpointsThatAreNotHTTPURLsAreRefused(_ endpoint: String) {
        #expect(throws: S3ConfigurationError.self) {
            try S3Configuration.fromEnvironment(keys.merging(["AWS_ENDPOINT_URL_S3": endpoint]) { $1 })
        }
    }

    @Test(arguments: ["us-east-1:evil", "EU-WEST-1", "eu west"])
    func regionsThatCouldBreakTheSigningProviderAreRefused(_ region: String) {
        #expect(throws: S3ConfigurationError.self) {
            try S3Configuration.fromEnvironment(keys.merging(["AWS_REGION": region]) { $1 })
        }
    }

    @Test func descriptionsNeverShowTheSecretOrToken() throws {
        let environment = keys.merging(["AWS_SESSION_TOKEN": "SESSION-TOKEN-VALUE"]) { $1 }
        let configuration = try S3Configuration.fromEnvironment(environment)
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in ["\(configuration)", String(reflecting: configuration), dumped] {
            #expect(!text.contains("wJalrXUtnFEMI"), "\(text)")
            #expect(!text.contains("SESSION-TOKEN-VALUE"), "\(text)")
            #expect(text.contains("AKIDEXAMPLE"), "\(text)")
        }
    }
}
