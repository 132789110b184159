{{/* Names and labels. */}}
{{- define "pps.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "pps.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "pps.selectorLabels" -}}
app.kubernetes.io/name: {{ include "pps.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* The service's pods: what the Deployment, both Services, the PDB and the NetworkPolicy
select. The migration Job's pods carry component "migrate" instead, so none of them select it. */}}
{{- define "pps.apiSelectorLabels" -}}
{{ include "pps.selectorLabels" . }}
app.kubernetes.io/component: api
{{- end -}}

{{- define "pps.labels" -}}
{{ include "pps.selectorLabels" . }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "pps.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- .Values.serviceAccount.name | default (include "pps.fullname" .) -}}
{{- else -}}
{{- .Values.serviceAccount.name | default "default" -}}
{{- end -}}
{{- end -}}

{{/* The migration hook's account: its own, created as a hook before the Job (Helm creates the
release's ordinary resources only after the pre-install hooks), or the one named in values. */}}
{{- define "pps.migrationServiceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- printf "%s-migrate" (include "pps.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- .Values.serviceAccount.name | default "default" -}}
{{- end -}}
{{- end -}}

{{- define "pps.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{/* The Secret every pod and the migration Job read: secrets.existingSecret, or one named after the release. */}}
{{- define "pps.secretName" -}}
{{- .Values.secrets.existingSecret | default (include "pps.fullname" .) -}}
{{- end -}}

{{/* SHA-256 of the Secret's data as the cluster has it now (lookup: empty offline, e.g. helm template). */}}
{{- define "pps.secretChecksum" -}}
{{- $secret := lookup "v1" "Secret" .Release.Namespace (include "pps.secretName" .) -}}
{{- $secret.data | default dict | toJson | sha256sum | quote -}}
{{- end -}}

{{/* The Ingress's annotations: ingress.annotations, over ingress-nginx's proxy read and send
timeouts, which the chart sets to config.shutdownTimeoutSeconds (at least the longest paid
call) + 5. nginx's default of 60 s would answer a longer call 504 while the service, seeing
its client gone, aborts the paid upstream call (docs/deploy.md, "The Helm chart"). */}}
{{- define "pps.ingressAnnotations" -}}
{{- $timeout := add .Values.config.shutdownTimeoutSeconds 5 | toString -}}
{{- $defaults := dict "nginx.ingress.kubernetes.io/proxy-read-timeout" $timeout "nginx.ingress.kubernetes.io/proxy-send-timeout" $timeout -}}
{{- merge (deepCopy (.Values.ingress.annotations | default dict)) $defaults | toYaml -}}
{{- end -}}

{{/* Environment shared by the service and the migration Job. */}}
{{- define "pps.env" -}}
{{- range $name := list "OPENAI_TIMEOUT_SECONDS" "SHUTDOWN_TIMEOUT_SECONDS" "DATABASE_POOL_MAX" "LOG_LEVEL" -}}
{{- if hasKey $.Values.extraEnv $name -}}
{{- fail (printf "extraEnv sets %s, which the chart sets from config (config.openaiTimeoutSeconds, config.shutdownTimeoutSeconds, config.databasePoolMax, config.logLevel): set it there" $name) -}}
{{- end -}}
{{- end -}}
{{- range $name := list "DATABASE_URL" "REDIS_URL" "OPENAI_API_KEY" "OPENAI_FALLBACK_API_KEY" "AZURE_OPENAI_API_KEY" "ADMIN_TOKEN" -}}
{{- if hasKey $.Values.extraEnv $name -}}
{{- fail (printf "extraEnv sets %s, a secret: put it in the Secret (secrets.existingSecret), which the chart reads it from" $name) -}}
{{- end -}}
{{- end -}}
{{- /* What the service derives a call's length from when OPENAI_TIMEOUT_SECONDS is unset (config/time-budget.ts; AZURE_OPENAI_ENDPOINT beside an OpenAI key is a fallback, which doubles it). */ -}}
{{- if not .Values.config.openaiTimeoutSeconds -}}
{{- range $name := list "OPENAI_MAX_RETRIES" "OPENAI_MIN_TOKENS_PER_SECOND" "OPENAI_FIRST_TOKEN_SECONDS" "OPENAI_ATTEMPT_TIMEOUT_SECONDS" "OPENAI_MAX_OUTPUT_TOKENS" "OPENAI_MAX_OUTPUT_TOKENS_SNAP" "OPENAI_MAX_OUTPUT_TOKENS_COMMS" "OPENAI_FALLBACK_BASE_URL" "AZURE_OPENAI_ENDPOINT" -}}
{{- if hasKey $.Values.extraEnv $name -}}
{{- fail (printf "extraEnv sets %s, which changes how long the service lets a paid call run, so the chart cannot check the shutdown bound against it: set config.openaiTimeoutSeconds to the whole upstream call you allow (docs/upstream.md) and config.shutdownTimeoutSeconds to at least that + 15" $name) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- /* 178: the longest call the service derives when OPENAI_TIMEOUT_SECONDS is unset (comms, docs/upstream.md). */ -}}
{{- $longestCall := .Values.config.openaiTimeoutSeconds | default 178 | int -}}
{{- if lt (int .Values.config.shutdownTimeoutSeconds) (add $longestCall 15 | int) -}}
{{- fail "config.shutdownTimeoutSeconds must be at least the longest call (config.openaiTimeoutSeconds, or 178 when empty) + 15: a shutdown must let paid calls in flight finish" -}}
{{- end -}}
- name: NODE_ENV
  value: production
- name: DATABASE_URL
  valueFrom:
    secretKeyRef: {name: {{ include "pps.secretName" . }}, key: {{ .Values.secrets.databaseUrlKey }}}
- name: REDIS_URL
  valueFrom:
    secretKeyRef: {name: {{ include "pps.secretName" . }}, key: {{ .Values.secrets.redisUrlKey }}}
- name: OPENAI_API_KEY
  valueFrom:
    secretKeyRef: {name: {{ include "pps.secretName" . }}, key: {{ .Values.secrets.openaiApiKeyKey }}, optional: true}
- name: OPENAI_FALLBACK_API_KEY
  valueFrom:
    secretKeyRef: {name: {{ include "pps.secretName" . }}, key: {{ .Values.secrets.openaiFallbackApiKeyKey }}, optional: true}
- name: AZURE_OPENAI_API_KEY
  valueFrom:
    secretKeyRef: {name: {{ include "pps.secretName" . }}, key: {{ .Values.secrets.azureOpenaiApiKeyKey }}, optional: true}
{{- with .Values.config.openaiTimeoutSeconds }}
- name: OPENAI_TIMEOUT_SECONDS
  value: {{ . | quote }}
{{- end }}
- name: DATABASE_POOL_MAX
  value: {{ .Values.config.databasePoolMax | quote }}
- name: LOG_LEVEL
  value: {{ .Values.config.logLevel | quote }}
{{- range $name, $value := .Values.extraEnv }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- end -}}

{{- define "pps.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 10001
runAsGroup: 10001
fsGroup: 10001
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "pps.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
privileged: false
capabilities:
  drop: [ALL]
{{- end -}}
