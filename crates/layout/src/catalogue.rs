//! Which component a node becomes: a label that names a product of the component catalogue
//! (`assets/component-ids.txt`) becomes that product, else a label whose last words say what
//! kind of thing it is (`Orders DB`, `Session cache`, `Load balancer`) becomes the generic type
//! of that kind, else the node's shape picks a generic type chosen so the picture reads right.
//! Shared by every graph reader (Mermaid, DOT).
//!
//! Labels are read as words: lowercase runs of letters and digits, everything else (spaces,
//! punctuation, line breaks) between them. A name matches whole words only, so `flowDb.ts`
//! names no database and `Redistribute` is not Redis. When several names match, the one of
//! most words wins (`Elastic Load Balancer` is the AWS balancer, not Elasticsearch), then the
//! one that comes first. A question (`Is Redis up?`) is a decision, never a product.

use std::collections::HashMap;
use std::sync::LazyLock;

/// A node's shape, as the graph readers name it (each maps its own shape names onto these).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A plain rectangle (Mermaid `[..]`, a bare id; DOT `box`, `rect`, the default).
    Rectangle,
    /// Rounded corners or a stadium (Mermaid `(..)`, `([..])`).
    Rounded,
    /// A subroutine or a process box with side bars (Mermaid `[[..]]`, `procs`).
    Subroutine,
    /// A cylinder: stored data (Mermaid `[(..)]`, `cyl`, `das`; DOT `cylinder`).
    Cylinder,
    /// A circle (Mermaid `((..))`, `(((..)))`; DOT `circle`, `doublecircle`, `point`).
    Circle,
    /// A rhombus: a decision (Mermaid `{..}`; DOT `diamond`).
    Rhombus,
    /// A hexagon: a preparation step (Mermaid `{{..}}`; DOT `hexagon`).
    Hexagon,
    /// A parallelogram or a trapezoid: input and output (Mermaid `[/../]`, `[\..\]`,
    /// `[/..\]`; DOT `parallelogram`, `trapezium`).
    Parallelogram,
    /// An asymmetric flag: a signal or a queue (Mermaid `>..]`).
    Flag,
    /// A document or a file (Mermaid `doc`, `docs`, `manual-file`; DOT `note`, `folder`).
    Document,
    /// A person or an actor (DOT `Mdiamond` and the like are not people; Mermaid has none of
    /// its own, so this comes from a reader's label hints).
    Person,
}

/// The componentId of a node given `label` and drawn as `shape`.
pub fn component_id(label: &str, shape: Shape) -> &'static str {
    let words = words(label);
    let question = label.trim_end().ends_with('?');
    (!question)
        .then(|| best_product(&words))
        .flatten()
        .or_else(|| kind(&words))
        .unwrap_or_else(|| generic(shape))
}

/// Whether the pictures fill a component of this type with its `primaryColor`: only the
/// generic types do; the catalogue's products are drawn in their own look.
pub fn shows_fill(component_id: &str) -> bool {
    component_id.starts_with("generic.")
}

/// The generic type a shape reads as.
fn generic(shape: Shape) -> &'static str {
    match shape {
        // A service or a step of work: a server box.
        Shape::Rectangle | Shape::Rounded => "generic.server",
        // A process of its own, or a preparation step (never a cache).
        Shape::Subroutine | Shape::Hexagon => "generic.processor",
        // Stored data.
        Shape::Cylinder => "generic.database",
        // Where a flow starts, ends or joins.
        Shape::Circle => "generic.connection",
        // A decision, as BPMN's gateways are diamonds.
        Shape::Rhombus => "generic.gateway",
        // Input or output: the catalogue has no such kind, so the plain block.
        Shape::Parallelogram => "generic.block",
        // A signal or an event waiting to be taken.
        Shape::Flag => "generic.message-queue",
        // A page of text on show.
        Shape::Document => "generic.billboard",
        // Someone at a screen.
        Shape::Person => "generic.pc",
    }
}

/// A label's words: lowercase runs of letters and digits.
fn words(label: &str) -> Vec<String> {
    label
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// A table's names by one of their words (the first, or the last), each with its length in
/// words, in the table's order: a label's words are looked up, not the whole table scanned for
/// each node.
type NamesByWord = HashMap<&'static str, Vec<(usize, &'static str, &'static str)>>;

/// `table`'s names by their first word (`last`: by their last).
fn index(table: &[(&'static str, &'static str)], last: bool) -> NamesByWord {
    let mut index: NamesByWord = HashMap::new();
    for &(name, id) in table {
        let mut words = name.split(' ');
        let key = if last {
            words.next_back()
        } else {
            words.next()
        };
        let entry = (name.split(' ').count(), name, id);
        index.entry(key.unwrap_or(name)).or_default().push(entry);
    }
    index
}

/// The products' names by their first word.
static PRODUCTS_BY_FIRST_WORD: LazyLock<NamesByWord> = LazyLock::new(|| index(PRODUCTS, false));

/// The kinds' names by their last word.
static KINDS_BY_LAST_WORD: LazyLock<NamesByWord> = LazyLock::new(|| index(KINDS, true));

/// The id of the longest product name found anywhere among `words` (of the longest, the one
/// found first, and of those the first in the table).
fn best_product(words: &[String]) -> Option<&'static str> {
    let mut best: Option<(usize, &'static str)> = None;
    for (at, word) in words.iter().enumerate() {
        let Some(names) = PRODUCTS_BY_FIRST_WORD.get(word.as_str()) else {
            continue;
        };
        for &(length, name, id) in names {
            let run = words[at..].iter().take(length).map(String::as_str);
            let longer = best.is_none_or(|(len, _)| length > len);
            if longer && words.len() - at >= length && run.eq(name.split(' ')) {
                best = Some((length, id));
            }
        }
    }
    best.map(|(_, id)| id)
}

/// The generic type the label's last words name (`Orders DB`, `Trace storage`): English puts
/// what a thing is last, so `Storage plugin` is a plugin, not storage. Of several, the one of
/// most words (of those, the last in the table).
fn kind(words: &[String]) -> Option<&'static str> {
    let names = KINDS_BY_LAST_WORD.get(words.last()?.as_str())?;
    names
        .iter()
        .filter(|&&(length, name, _)| {
            words.len() >= length
                && (words[words.len() - length..].iter())
                    .map(String::as_str)
                    .eq(name.split(' '))
        })
        .max_by_key(|&&(length, _, _)| length)
        .map(|&(_, _, id)| id)
}

/// Products by the names people write for them (lowercase words, one space between), with
/// their componentId in the catalogue. Products the catalogue lacks (Jaeger, Grafana, Envoy,
/// ...) are the generic type of their kind.
const PRODUCTS: &[(&str, &str)] = &[
    // Databases.
    ("postgres", "database.postgres"),
    ("postgresql", "database.postgres"),
    ("pg", "database.postgres"),
    ("pgsql", "database.postgres"),
    ("psql", "database.postgres"),
    ("mysql", "database.mysql"),
    ("mariadb", "database.maria-db"),
    ("maria db", "database.maria-db"),
    ("mongodb", "database.mongodb"),
    ("mongo", "database.mongodb"),
    ("cassandra", "database.apache-cassandra"),
    ("elasticsearch", "database.elastic-search"),
    ("elastic search", "database.elastic-search"),
    ("elastic", "database.elastic-search"),
    ("etcd", "database.etcd"),
    ("neo4j", "database.neo4j"),
    ("sqlite", "database.sqlite"),
    ("sqlite3", "database.sqlite"),
    ("influxdb", "database.influxdb"),
    ("influx", "database.influxdb"),
    ("couchdb", "database.couch-db"),
    ("couchbase", "database.couchbase"),
    ("cockroachdb", "database.cockroach-db"),
    ("cockroach", "database.cockroach-db"),
    ("oracle db", "database.oracle-db"),
    ("oracle database", "database.oracle-db"),
    ("sql server", "database.microsoft-sql-server"),
    ("mssql", "database.microsoft-sql-server"),
    ("dynamodb", "database.aws-dynamodb"),
    ("dynamo", "database.aws-dynamodb"),
    ("aurora", "database.aws-amazon-aurora"),
    ("rds", "database.aws-amazon-rds"),
    ("bigquery", "database.gcc-bigquery"),
    ("spanner", "database.gcc-cloud-spanner"),
    ("bigtable", "database.gcc-cloud-bigtable"),
    ("cloud sql", "database.gcc-cloud-sql"),
    ("cosmosdb", "database.azure-cosmos-db"),
    ("cosmos db", "database.azure-cosmos-db"),
    ("azure sql", "database.azure-sql-database"),
    ("prometheus", "database.prometheus"),
    ("graphite", "database.graphite"),
    ("riak", "database.riak"),
    ("rethinkdb", "database.rethink-db"),
    ("arangodb", "database.arango-db"),
    ("teradata", "database.teradata-db"),
    ("db2", "database.ibm-db2"),
    ("algolia", "database.algolia"),
    ("cratedb", "database.crate-db"),
    // Caches.
    ("redis", "cache.redis"),
    ("memcached", "cache.memcached"),
    ("memcache", "cache.memcached"),
    ("elasticache", "cache.aws-elasticache"),
    ("aerospike", "cache.aerospike"),
    ("azure redis", "cache.azure-redis-cache"),
    ("geode", "cache.apache-geode"),
    // Messaging.
    ("kafka", "messaging.apache-kafka"),
    ("rabbitmq", "messaging.rabbitmq"),
    ("rabbit mq", "messaging.rabbitmq"),
    ("rabbit", "messaging.rabbitmq"),
    ("nats", "messaging.nats"),
    ("zeromq", "messaging.zeromq"),
    ("zmq", "messaging.zeromq"),
    ("activemq", "messaging.activemq"),
    ("sqs", "messaging.amazon-sqs"),
    (
        "sns",
        "messaging.aws-amazon-simple-notification-service-(sns)",
    ),
    ("amazon ses", "messaging.aws-simple-email-service"),
    ("kinesis", "messaging.aws-kinesis"),
    ("cloud pub sub", "messaging.gcc-cloud-pub-sub"),
    ("google pub sub", "messaging.gcc-cloud-pub-sub"),
    ("pubsub", "messaging.gcc-cloud-pub-sub"),
    ("service bus", "messaging.azure-service-bus"),
    ("event grid", "messaging.azure-event-grid"),
    ("mule esb", "messaging.mule-esb"),
    ("mulesoft", "messaging.mule-esb"),
    ("ibm mq", "messaging.ibm-mq"),
    ("qpid", "messaging.apache-qpid"),
    ("hornetq", "messaging.hornetq"),
    ("tibco", "messaging.tibco-messaging"),
    ("signalr", "messaging.azure-signalr-service"),
    // Networking.
    ("nginx", "networking.nginx"),
    ("haproxy", "networking.haproxy"),
    ("cloudfront", "networking.aws-amazon-cloudfront"),
    ("route 53", "networking.aws-amazon-route-53"),
    ("route53", "networking.aws-amazon-route-53"),
    ("aws api gateway", "networking.aws-api-gateway"),
    ("amazon api gateway", "networking.aws-api-gateway"),
    ("elb", "networking.aws-elastic-loadbalancer"),
    ("alb", "networking.aws-elastic-loadbalancer"),
    ("nlb", "networking.aws-elastic-loadbalancer"),
    (
        "elastic load balancer",
        "networking.aws-elastic-loadbalancer",
    ),
    (
        "elastic load balancing",
        "networking.aws-elastic-loadbalancer",
    ),
    ("direct connect", "networking.aws-direct-connect"),
    ("azure dns", "networking.azure-dns"),
    ("azure load balancer", "networking.azure-load-balancer"),
    (
        "application gateway",
        "networking.azure-application-gateway",
    ),
    ("api management", "networking.azure-api-management"),
    ("traffic manager", "networking.azure-traffic-manager"),
    ("expressroute", "networking.azure-expressroute"),
    ("cloud cdn", "networking.gcc-cloud-cdn"),
    ("cloud dns", "networking.gcc-cloud-dns"),
    ("cloud armor", "networking.gcc-cloud-armor"),
    (
        "cloud load balancing",
        "networking.gcc-cloud-load-balancing",
    ),
    ("websphere", "networking.ibm-websphere-application-server"),
    // Containers and computation.
    ("kubernetes", "container.kubernetes"),
    ("k8s", "container.kubernetes"),
    ("kube", "container.kubernetes"),
    ("docker", "container.docker"),
    ("packer", "container.hashicorp-packer"),
    ("lambda", "computation.aws-lambda"),
    ("ec2", "computation.aws-ec2"),
    ("fargate", "computation.aws-fargate"),
    ("ecs", "computation.aws-amazon-elastic-container-service"),
    (
        "eks",
        "computation.aws-amazon-elastic-container-service-for-kubernetes",
    ),
    ("ecr", "computation.aws-amazon-elastic-container-registry"),
    ("step functions", "computation.aws-step-functions"),
    ("aws batch", "computation.aws-batch"),
    ("azure functions", "computation.azure-functions"),
    ("aks", "computation.azure-kubernetes-service-(aks)"),
    ("cloud functions", "computation.gcc-cloud-functions"),
    ("app engine", "computation.gcc-app-engine"),
    ("compute engine", "computation.gcc-compute-engine"),
    ("gke", "computation.gcc-kubernetes-engine"),
    ("gcr", "container.gcc-container-registry"),
    ("acr", "container.azure-container-registry"),
    // Storage.
    ("s3", "storage.aws-s3"),
    ("glacier", "storage.aws-glacier"),
    ("ebs", "storage.aws-ebs"),
    ("efs", "storage.aws-amazon-elastic-file-system"),
    ("snowball", "storage.aws-snowball"),
    ("redshift", "storage.aws-redshift"),
    ("gcs", "storage.gcc-cloud-storage"),
    ("google cloud storage", "storage.gcc-cloud-storage"),
    ("firestore", "storage.gcc-cloud-firestore"),
    ("memorystore", "storage.gcc-cloud-memorystore"),
    ("blob storage", "storage.azure-blob-storage"),
    ("azure files", "storage.azure-file-storage"),
    // Security.
    ("hashicorp vault", "security.hashicorp-vault"),
    ("key vault", "security.azure-key-vault"),
    ("cognito", "security.aws-amazon-cognito"),
    ("guardduty", "security.aws-amazon-guardduty"),
    ("aws iam", "security.aws-identity-&-access-management"),
    ("aws kms", "security.aws-key-management-service"),
    ("aws waf", "security.aws-waf"),
    ("secrets manager", "security.aws-secret-manager"),
    ("active directory", "security.azure-active-directory"),
    ("azure ad", "security.azure-active-directory"),
    ("opnsense", "security.opn-sense-firewall"),
    // Monitoring, analytics, data processing.
    ("cloudwatch", "monitoring.aws-amazon-cloudwatch"),
    ("kibana", "monitoring.kibana"),
    ("azure monitor", "monitoring.azure-monitor"),
    ("stackdriver", "monitoring.gcc-monitoring"),
    ("athena", "analytics.aws-athena"),
    ("aws glue", "analytics.aws-glue"),
    ("quicksight", "analytics.aws-quicksight"),
    ("cloudtrail", "analytics.aws-cloudtrail"),
    ("databricks", "analytics.azure-databricks"),
    ("power bi", "analytics.azure-power-bi-embedded"),
    ("event hubs", "analytics.azure-event-hubs"),
    ("data factory", "analytics.azure-data-factory"),
    ("flink", "data-processing.apache-flink"),
    ("spark", "data-processing.apache-spark"),
    ("emr", "data-processing.aws-emr"),
    ("dataflow", "data-processing.gcc-cloud-dataflow"),
    ("dataproc", "data-processing.gcc-cloud-dataproc"),
    // AI.
    ("tensorflow", "ai.tensorflow"),
    ("sagemaker", "ai.aws-amazon-sagemaker"),
    ("rekognition", "ai.aws-amazon-rekognition"),
    ("mxnet", "ai.aws-apache-mxnet-on-aws"),
    ("dialogflow", "ai.gcc-dialogflow-enterprise-edition"),
    ("automl", "ai.gcc-cloud-automl"),
    // DevOps, APIs.
    ("consul", "devops.hashicorp-consul"),
    ("nomad", "devops.hashicorp-nomad"),
    ("apigee", "api.gcc-apigee-api-platform"),
    ("trello", "api.trello"),
    // Products the catalogue lacks, as the generic type of their kind.
    ("jaeger", "generic.generic-monitoring"),
    ("zipkin", "generic.generic-monitoring"),
    ("grafana", "generic.analytics"),
    ("alertmanager", "generic.generic-monitoring"),
    ("loki", "generic.generic-logging"),
    ("fluentd", "generic.generic-logging"),
    ("fluent bit", "generic.generic-logging"),
    ("logstash", "generic.generic-logging"),
    ("envoy", "generic.loadbalancer"),
    ("traefik", "generic.loadbalancer"),
    ("caddy", "generic.loadbalancer"),
    ("istio", "generic.generic-network-router"),
    ("linkerd", "generic.generic-network-router"),
    ("opensearch", "generic.search"),
    ("solr", "generic.search"),
    ("clickhouse", "generic.data-warehouse"),
    ("snowflake", "generic.data-warehouse"),
    ("minio", "generic.bucket"),
    ("ceph", "generic.generic-disk-storage"),
    ("pulsar", "generic.generic-message-bus"),
    ("keycloak", "generic.generic-identity-provider"),
    ("okta", "generic.generic-identity-provider"),
    ("auth0", "generic.generic-identity-provider"),
    ("airflow", "generic.generic-scheduler"),
];

/// Generic kinds by the words that end a label naming them (lowercase, one space between).
const KINDS: &[(&str, &str)] = &[
    ("database", "generic.database"),
    ("databases", "generic.database"),
    ("db", "generic.database"),
    ("datastore", "generic.database"),
    ("rdbms", "generic.database"),
    ("key value store", "generic.generic-keyvalue"),
    ("kv store", "generic.generic-keyvalue"),
    ("time series database", "generic.timeseriesdb"),
    ("tsdb", "generic.timeseriesdb"),
    ("data warehouse", "generic.data-warehouse"),
    ("warehouse", "generic.data-warehouse"),
    ("cache", "generic.cache"),
    ("queue", "generic.message-queue"),
    ("queues", "generic.message-queue"),
    ("mq", "generic.message-queue"),
    ("broker", "generic.message-queue"),
    ("message bus", "generic.generic-message-bus"),
    ("event bus", "generic.generic-message-bus"),
    ("service bus", "generic.enterprise-service-bus"),
    ("esb", "generic.enterprise-service-bus"),
    ("event hub", "generic.generic-event-hub"),
    ("bucket", "generic.bucket"),
    ("buckets", "generic.bucket"),
    ("object storage", "generic.bucket"),
    ("storage", "generic.generic-disk-storage"),
    ("store", "generic.generic-disk-storage"),
    ("disk", "generic.generic-disk-storage"),
    ("volume", "generic.generic-disk-storage"),
    ("load balancer", "generic.loadbalancer"),
    ("loadbalancer", "generic.loadbalancer"),
    ("lb", "generic.loadbalancer"),
    ("proxy", "generic.loadbalancer"),
    ("ingress", "generic.loadbalancer"),
    ("api gateway", "generic.api-gateway"),
    ("gateway", "generic.gateway"),
    ("firewall", "generic.generic-firewall"),
    ("waf", "generic.generic-firewall"),
    ("router", "generic.generic-router"),
    ("switch", "generic.generic-network-switch"),
    ("cdn", "generic.generic-cdn"),
    ("dns", "generic.generic-network-router"),
    ("internet", "generic.cloud"),
    ("cloud", "generic.cloud"),
    ("user", "generic.pc"),
    ("users", "generic.pc"),
    ("client", "generic.pc"),
    ("clients", "generic.pc"),
    ("browser", "generic.pc"),
    ("customer", "generic.pc"),
    ("customers", "generic.pc"),
    ("mobile", "generic.smartphone"),
    ("mobile app", "generic.smartphone"),
    ("phone", "generic.smartphone"),
    ("scheduler", "generic.generic-scheduler"),
    ("cron", "generic.generic-scheduler"),
    ("orchestrator", "generic.generic-orchestrator"),
    ("container", "generic.generic-container"),
    ("pod", "generic.generic-container"),
    ("registry", "generic.generic-container-registry"),
    ("vault", "generic.generic-vault"),
    ("secrets", "generic.generic-vault"),
    ("identity provider", "generic.generic-identity-provider"),
    ("idp", "generic.generic-identity-provider"),
    ("logging", "generic.generic-logging"),
    ("logs", "generic.generic-logging"),
    ("monitoring", "generic.generic-monitoring"),
    ("monitor", "generic.generic-monitoring"),
    ("metrics", "generic.generic-monitoring"),
    ("email", "generic.generic-email"),
    ("mail", "generic.generic-email"),
    ("search", "generic.search"),
    ("search engine", "generic.search"),
    ("analytics", "generic.analytics"),
    ("dashboard", "generic.analytics"),
    ("stream processor", "generic.stream-processor"),
    ("batch job", "generic.generic-batch-processor"),
    ("bot", "generic.bot"),
    ("chatbot", "generic.bot"),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The catalogue's componentIds.
    fn catalogue() -> Vec<&'static str> {
        include_str!("../../../assets/component-ids.txt")
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect()
    }

    #[test]
    fn every_id_named_here_is_in_the_catalogue() {
        let catalogue = catalogue();
        let shapes = [
            Shape::Rectangle,
            Shape::Rounded,
            Shape::Subroutine,
            Shape::Cylinder,
            Shape::Circle,
            Shape::Rhombus,
            Shape::Hexagon,
            Shape::Parallelogram,
            Shape::Flag,
            Shape::Document,
            Shape::Person,
        ];
        let ids = PRODUCTS
            .iter()
            .chain(KINDS)
            .map(|&(_, id)| id)
            .chain(shapes.map(generic));
        for id in ids {
            assert!(catalogue.contains(&id), "{id} is not in the catalogue");
        }
    }

    #[test]
    fn names_are_lowercase_words_with_one_space_between() {
        for &(name, _) in PRODUCTS.iter().chain(KINDS) {
            assert_eq!(words(name).join(" "), name, "{name:?}");
        }
    }

    #[test]
    fn products_are_found_by_their_names_and_aliases_in_any_case() {
        let cases = [
            ("PostgreSQL", "database.postgres"),
            ("postgres primary", "database.postgres"),
            ("PG replica", "database.postgres"),
            ("Redis", "cache.redis"),
            ("Kafka", "messaging.apache-kafka"),
            ("nginx ingress", "networking.nginx"),
            ("Amazon S3", "storage.aws-s3"),
            ("s3 bucket", "storage.aws-s3"),
            ("K8s cluster", "container.kubernetes"),
            ("Kubernetes API server", "container.kubernetes"),
            ("Elastic", "database.elastic-search"),
            ("Elasticsearch", "database.elastic-search"),
            ("MySQL", "database.mysql"),
            ("MongoDB", "database.mongodb"),
            ("RabbitMQ", "messaging.rabbitmq"),
            ("AWS Lambda", "computation.aws-lambda"),
            ("Route 53", "networking.aws-amazon-route-53"),
        ];
        for (label, id) in cases {
            assert_eq!(component_id(label, Shape::Rectangle), id, "{label}");
        }
    }

    #[test]
    fn the_longest_name_wins_then_the_first() {
        assert_eq!(
            component_id("Elastic Load Balancer", Shape::Rectangle),
            "networking.aws-elastic-loadbalancer"
        );
        assert_eq!(
            component_id("Redis in front of PostgreSQL", Shape::Rectangle),
            "cache.redis"
        );
        assert_eq!(
            component_id("Azure Redis", Shape::Rectangle),
            "cache.azure-redis-cache"
        );
    }

    #[test]
    fn names_inside_other_words_do_not_count() {
        // From the corpus's Mermaid code-flow chart (18): "flowDb.ts" and "db: new FlowDB()".
        assert_eq!(
            component_id("flowDb.ts", Shape::Rectangle),
            "generic.server"
        );
        assert_eq!(
            component_id("db: new FlowDB()", Shape::Rectangle),
            "generic.server"
        );
        for label in [
            "Redistribute",
            "Kafkaesque",
            "pgadmin",
            "s3cr3t",
            "Elasticity",
        ] {
            assert_eq!(component_id(label, Shape::Rectangle), "generic.server");
        }
    }

    #[test]
    fn labels_from_the_corpus_become_what_they_say() {
        // 36-jaeger-spm-monitor: `Prometheus[(Prometheus)]`, `Jaeger[Jaeger]`,
        // `Storage[(Storage)]`, `JaegerUI[Jaeger\n UI]`.
        assert_eq!(
            component_id("Prometheus", Shape::Cylinder),
            "database.prometheus"
        );
        assert_eq!(
            component_id("Jaeger", Shape::Rectangle),
            "generic.generic-monitoring"
        );
        assert_eq!(
            component_id("Storage", Shape::Cylinder),
            "generic.generic-disk-storage"
        );
        assert_eq!(
            component_id("Jaeger\nUI", Shape::Rectangle),
            "generic.generic-monitoring"
        );
        // 33-jaeger-architecture: "Jaeger Collector", "Storage Plugin" (a plugin, not storage).
        assert_eq!(
            component_id("Storage Plugin", Shape::Rectangle),
            "generic.server"
        );
        // 34-jaeger-remote-sampling: `TraceStorage[(Trace\nStorage)]`, `Storage[[Storage\n..]]`.
        assert_eq!(
            component_id("Trace\nStorage", Shape::Cylinder),
            "generic.generic-disk-storage"
        );
        // 35-jaeger-grpc-integration-test: `Storage[(In-Memory Store)]`, "gRPC Storage".
        assert_eq!(
            component_id("In-Memory Store", Shape::Cylinder),
            "generic.generic-disk-storage"
        );
        // 39-envoygateway-opa-sidecar: a socket drawn as a cylinder is stored data; the
        // "Envoy Proxy Container" subgraph title would be Envoy.
        assert_eq!(
            component_id("Unix Domain Socket\n/shared/opa/opa.sock", Shape::Cylinder),
            "generic.database"
        );
        assert_eq!(
            component_id("🔐 ext_authz Filter", Shape::Rounded),
            "generic.server"
        );
        // 30-temporal-schedule-execute and 15-official-examples: queues by their last word.
        assert_eq!(
            component_id("Outbound Queue", Shape::Rectangle),
            "generic.message-queue"
        );
        // 17-official-demo-linkstyle: `{{Load balancer}}` is no cache.
        assert_eq!(
            component_id("Load balancer", Shape::Hexagon),
            "generic.loadbalancer"
        );
        assert_eq!(
            component_id("Prepare data", Shape::Hexagon),
            "generic.processor"
        );
    }

    #[test]
    fn a_question_is_a_decision_whatever_it_names() {
        assert_eq!(
            component_id("Is Redis up?", Shape::Rhombus),
            "generic.gateway"
        );
        assert_eq!(component_id("Redis", Shape::Rhombus), "cache.redis");
    }

    #[test]
    fn other_labels_take_their_shapes_generic_type() {
        let cases = [
            (Shape::Rectangle, "generic.server"),
            (Shape::Rounded, "generic.server"),
            (Shape::Subroutine, "generic.processor"),
            (Shape::Cylinder, "generic.database"),
            (Shape::Circle, "generic.connection"),
            (Shape::Rhombus, "generic.gateway"),
            (Shape::Hexagon, "generic.processor"),
            (Shape::Parallelogram, "generic.block"),
            (Shape::Flag, "generic.message-queue"),
            (Shape::Document, "generic.billboard"),
            (Shape::Person, "generic.pc"),
        ];
        for (shape, id) in cases {
            assert_eq!(component_id("Handle the order", shape), id, "{shape:?}");
            assert_eq!(component_id("", shape), id, "{shape:?}");
        }
    }
}
