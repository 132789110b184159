/*
 * A Java client of the API, generated from openapi/openapi.yaml by openapi-generator (7.x,
 * the `java` generator: okhttp and gson). Creates a snap, then communication advice for it,
 * reads both responses into the generated models and prints them as JSON.
 *
 *   scripts/contract/generate-openapi-generator-clients.sh   # generates, compiles (Maven) and compiles this
 *   cd dist/sdk/openapi-generator/java && PPS_BASE_URL=http://127.0.0.1:3000 PPS_API_KEY=pps_live_... \
 *     java -cp "example-classes:target/classes:$(cat classpath.txt)" CreateSnapAndComms
 *
 * `make contract` runs it against the live service (test/contract/openapi-generator-clients.test.ts).
 */
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.util.UUID;
import org.openapitools.client.ApiClient;
import org.openapitools.client.api.SnapsApi;
import org.openapitools.client.model.Channel;
import org.openapitools.client.model.CommsEnvelope;
import org.openapitools.client.model.CommsRequest;
import org.openapitools.client.model.SnapEnvelope;
import org.openapitools.client.model.SnapRequest;

public final class CreateSnapAndComms {
  public static void main(String[] args) throws Exception {
    String apiKey = System.getenv("PPS_API_KEY");
    if (apiKey == null || apiKey.isEmpty()) {
      System.err.println("set PPS_API_KEY to an API key (make run prints a demo key)");
      System.exit(2);
    }
    String baseUrl = System.getenv().getOrDefault("PPS_BASE_URL", "http://127.0.0.1:3000");

    ApiClient client = new ApiClient();
    client.setBasePath(baseUrl);
    // The API key goes in the `x-api-key` header (the spec's ApiKeyAuth scheme).
    client.setApiKey(apiKey);
    SnapsApi snaps = new SnapsApi(client);

    // Safe to retry: a retry with the same Idempotency-Key returns the first result and charges nothing.
    SnapEnvelope snap = snaps.createSnap(
        new SnapRequest()
            .name("Ada Lovelace")
            .notes("Checks every figure twice, keeps meticulous notes and asks for the data before any decision.")
            .ageRange("35-44")
            .jobType("Financial auditor"),
        UUID.randomUUID().toString());
    CommsEnvelope comms = snaps.createCommsAnalysis(
        new CommsRequest()
            .snapId(snap.getData().getSnapId())
            .channel(Channel.EMAIL)
            .goal("Agree on the audit schedule for next quarter")
            .draft("Hi Ada, I think maybe we could possibly look at the schedule sometime? Let me know."),
        UUID.randomUUID().toString());

    JsonObject out = new JsonObject();
    out.addProperty("snapId", snap.getData().getSnapId());
    out.add("snap", JsonParser.parseString(snap.getData().getSnapResponse().toJson()));
    out.addProperty("commsId", comms.getData().getCommsId());
    out.add("comms", JsonParser.parseString(comms.getData().getCommsResponse().toJson()));
    System.out.println(out);
  }
}
