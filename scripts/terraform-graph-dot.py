#!/usr/bin/env python3
"""Writes a large `terraform graph` in Terraform 1.7's form (crates/layout/tests/data/dot/
terraform-modules.dot): resources of the root module and of nested modules, each module a
cluster, edges from resources to what they reference. The graph is made up (deterministic,
no randomness) to test the DOT reader and the layout at 150+ nodes:

    python3 scripts/terraform-graph-dot.py > crates/layout/tests/data/dot/terraform-modules.dot
"""

MODULES = {
    "network": ["aws_vpc.main", "aws_internet_gateway.main", "aws_nat_gateway.a",
                "aws_nat_gateway.b", "aws_eip.nat_a", "aws_eip.nat_b", "aws_route_table.public",
                "aws_route_table.private_a", "aws_route_table.private_b", "aws_subnet.public_a",
                "aws_subnet.public_b", "aws_subnet.private_a", "aws_subnet.private_b",
                "aws_route_table_association.public_a", "aws_route_table_association.public_b",
                "aws_route_table_association.private_a", "aws_route_table_association.private_b",
                "aws_flow_log.vpc"],
    "network.module.endpoints": ["aws_vpc_endpoint.s3", "aws_vpc_endpoint.ecr_api",
                                 "aws_vpc_endpoint.ecr_dkr", "aws_vpc_endpoint.logs",
                                 "aws_security_group.endpoints"],
    "cluster": ["aws_eks_cluster.main", "aws_iam_role.cluster", "aws_iam_role_policy_attachment.cluster",
                "aws_security_group.cluster", "aws_cloudwatch_log_group.cluster",
                "aws_kms_key.secrets", "aws_kms_alias.secrets", "aws_eks_addon.vpc_cni",
                "aws_eks_addon.coredns", "aws_eks_addon.kube_proxy"],
    "cluster.module.nodes": ["aws_eks_node_group.general", "aws_eks_node_group.spot",
                             "aws_iam_role.nodes", "aws_iam_role_policy_attachment.worker",
                             "aws_iam_role_policy_attachment.cni", "aws_iam_role_policy_attachment.ecr",
                             "aws_launch_template.nodes", "aws_security_group.nodes"],
    "database": ["aws_db_instance.orders", "aws_db_subnet_group.orders", "aws_db_parameter_group.orders",
                 "aws_security_group.db", "random_password.db", "aws_secretsmanager_secret.db",
                 "aws_secretsmanager_secret_version.db", "aws_db_instance.orders_replica",
                 "aws_cloudwatch_metric_alarm.db_cpu", "aws_cloudwatch_metric_alarm.db_storage"],
    "cache": ["aws_elasticache_replication_group.sessions", "aws_elasticache_subnet_group.sessions",
              "aws_elasticache_parameter_group.sessions", "aws_security_group.cache"],
    "queue": ["aws_sqs_queue.orders", "aws_sqs_queue.orders_dlq", "aws_sns_topic.events",
              "aws_sns_topic_subscription.orders", "aws_sqs_queue_policy.orders"],
    "storage": ["aws_s3_bucket.assets", "aws_s3_bucket_versioning.assets",
                "aws_s3_bucket_public_access_block.assets", "aws_s3_bucket_policy.assets",
                "aws_cloudfront_distribution.assets", "aws_cloudfront_origin_access_control.assets",
                "aws_s3_bucket.logs", "aws_s3_bucket_lifecycle_configuration.logs"],
    "dns": ["aws_route53_zone.main", "aws_route53_record.api", "aws_route53_record.www",
            "aws_route53_record.assets", "aws_acm_certificate.main",
            "aws_acm_certificate_validation.main", "aws_route53_record.validation"],
    "monitoring": ["aws_cloudwatch_dashboard.main", "aws_sns_topic.alerts",
                   "aws_cloudwatch_metric_alarm.api_5xx", "aws_cloudwatch_metric_alarm.queue_age",
                   "aws_cloudwatch_log_metric_filter.errors"],
    "apps": ["helm_release.orders_api", "helm_release.storefront", "helm_release.worker",
             "kubernetes_namespace.shop", "kubernetes_secret.db", "kubernetes_config_map.settings",
             "kubernetes_service_account.orders", "aws_iam_role.orders_irsa",
             "aws_iam_policy.orders_queue", "aws_iam_role_policy_attachment.orders_queue",
             "aws_ecr_repository.orders_api", "aws_ecr_repository.storefront",
             "aws_ecr_repository.worker", "aws_ecr_lifecycle_policy.all"],
    "apps.module.jobs": ["kubernetes_cron_job_v1.reports", "kubernetes_cron_job_v1.cleanup",
                         "kubernetes_job_v1.migrate", "kubernetes_config_map.jobs",
                         "aws_iam_role.jobs_irsa", "aws_iam_policy.jobs_s3"],
    "search": ["aws_opensearch_domain.catalog", "aws_security_group.search",
               "aws_iam_service_linked_role.search", "aws_cloudwatch_log_group.search",
               "aws_cloudwatch_log_resource_policy.search", "aws_opensearch_domain_policy.catalog"],
    "auth": ["aws_cognito_user_pool.customers", "aws_cognito_user_pool_client.storefront",
             "aws_cognito_user_pool_client.admin", "aws_cognito_user_pool_domain.main",
             "aws_cognito_identity_pool.main", "aws_iam_role.authenticated",
             "aws_iam_role.unauthenticated", "aws_cognito_identity_pool_roles_attachment.main"],
    "ci": ["aws_codepipeline.main", "aws_codebuild_project.build", "aws_codebuild_project.test",
           "aws_codestarconnections_connection.github", "aws_iam_role.pipeline",
           "aws_iam_role.codebuild", "aws_s3_bucket.artifacts", "aws_kms_key.artifacts",
           "aws_cloudwatch_event_rule.pipeline", "aws_sns_topic.pipeline"],
    "backup": ["aws_backup_vault.main", "aws_backup_plan.daily", "aws_backup_selection.db",
               "aws_backup_selection.storage", "aws_iam_role.backup", "aws_kms_key.backup",
               "aws_backup_vault_notifications.main"],
    "waf": ["aws_wafv2_web_acl.main", "aws_wafv2_ip_set.blocked", "aws_wafv2_rule_group.rate",
            "aws_wafv2_web_acl_association.api", "aws_wafv2_web_acl_logging_configuration.main",
            "aws_cloudwatch_log_group.waf"],
    "mail": ["aws_ses_domain_identity.main", "aws_ses_domain_dkim.main",
             "aws_ses_configuration_set.main", "aws_ses_event_destination.bounces",
             "aws_sns_topic.bounces"],
}

ROOT = ["aws_iam_openid_connect_provider.eks", "data.aws_caller_identity.current",
        "data.aws_region.current", "data.aws_availability_zones.available", "aws_kms_key.main",
        "aws_cloudtrail.main", "aws_budgets_budget.monthly", "random_id.suffix",
        "aws_organizations_account.shop", "aws_iam_account_password_policy.strict",
        "aws_guardduty_detector.main", "aws_securityhub_account.main"]

# What each module's resources reference, by module: the first resource of each target.
USES = {
    "network.module.endpoints": ["network"],
    "cluster": ["network"],
    "cluster.module.nodes": ["cluster", "network"],
    "database": ["network", "monitoring"],
    "cache": ["network"],
    "queue": ["monitoring"],
    "storage": ["dns"],
    "apps": ["cluster", "database", "queue", "cache", "storage"],
    "apps.module.jobs": ["apps", "database", "storage"],
    "search": ["network", "monitoring"],
    "auth": ["dns", "mail"],
    "ci": ["apps", "cluster"],
    "backup": ["database", "storage"],
    "waf": ["dns", "monitoring"],
    "mail": ["dns"],
    "monitoring": [],
    "dns": [],
    "network": [],
}


def address(module, resource):
    return f"module.{module}.{resource}" if module else resource


def main():
    print("digraph G {")
    print('  rankdir = "RL";')
    print('  node [shape = rect, fontname = "sans-serif"];')
    for resource in ROOT:
        print(f'  "{resource}" [label="{resource}"];')
    opened = []
    for module, resources in MODULES.items():
        while opened and not module.startswith(opened[-1] + ".module."):
            opened.pop()
            print("  " * (len(opened) + 1) + "}")
        indent = "  " * (len(opened) + 1)
        print(f'{indent}subgraph "cluster_module.{module}" {{')
        print(f'{indent}  label = "module.{module}"')
        print(f'{indent}  fontname = "sans-serif"')
        for resource in resources:
            print(f'{indent}  "{address(module, resource)}" [label="{resource}"];')
        opened.append(module)
    while opened:
        opened.pop()
        print("  " * (len(opened) + 1) + "}")
    edges = []
    for module, resources in MODULES.items():
        first = address(module, resources[0])
        # Within a module: each resource references the one before it and the first.
        for i, resource in enumerate(resources[1:], start=1):
            here = address(module, resource)
            edges.append((here, address(module, resources[i - 1])))
            if i > 1 and i % 3 == 0:
                edges.append((here, first))
        for target in USES[module]:
            edges.append((first, address(target, MODULES[target][0])))
            edges.append((address(module, resources[-1]), address(target, MODULES[target][-1])))
    for i, resource in enumerate(ROOT[1:], start=1):
        edges.append((resource, ROOT[0] if i % 2 else ROOT[1]))
    edges.append((address("cluster", "aws_eks_cluster.main"), ROOT[0]))
    edges.append((address("apps", "aws_iam_role.orders_irsa"), ROOT[0]))
    edges.append((address("database", "aws_db_instance.orders"), ROOT[4]))
    for tail, head in edges:
        print(f'  "{tail}" -> "{head}";')
    print("}")


main()
