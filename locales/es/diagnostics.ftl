diagnostics-title = Diagnóstico
diagnostics-loading = Cargando…

## Tramas en cuarentena

diagnostics-quarantine-title = Tramas en cuarentena
diagnostics-quarantine-empty = No hay tramas en cuarentena: hasta ahora todos los eventos han cumplido el contrato.
diagnostics-by-rule = Rechazadas, por regla
diagnostics-rule-count = { $rule }: { $count }
diagnostics-recent = Más recientes
diagnostics-col-seq = N.º sec.
diagnostics-col-rule = Regla
diagnostics-col-why = Motivo
diagnostics-col-frame = Trama (tal como llegó)
diagnostics-raw-cut = { $bytes ->
    [one] (recortada, { $bytes } byte)
   *[other] (recortada, { $bytes } bytes)
}

## El servidor

diagnostics-host-title = El servidor
diagnostics-host-check = Comprobar el servidor
diagnostics-host-checking = Comprobando todas las reglas de la interfaz del servidor (unos 20 segundos)…
diagnostics-host-works = Este servidor funciona con a2learn Teacher.
diagnostics-host-breaks = Este servidor incumple una regla que el panel necesita: { $what } ({ $section }).
diagnostics-host-breaks-detail = Este servidor incumple una regla que el panel necesita: { $what } ({ $section }). { $detail }
diagnostics-check-col-result = Resultado
diagnostics-check-col-rule = Regla
diagnostics-check-col-where = Dónde
diagnostics-check-col-seen = Observado
diagnostics-check-passed = correcta
diagnostics-check-failed = fallida
diagnostics-check-advice = recomendación
diagnostics-check-skipped = omitida

## Cada regla de la comprobación del servidor, por su id.

diagnostics-check-auth-refused = sin token o con un token incorrecto, la respuesta es 401 y nada más
diagnostics-check-auth-accepted = el token abre una sesión MCP en /mcp
diagnostics-check-tools-required = tools/list incluye todas las herramientas obligatorias, cada una con un esquema de entrada que nombra sus argumentos
diagnostics-check-tools-optional = las herramientas opcionales (pause_class, resume_class, set_pacing, list_classes) están descritas
diagnostics-check-catalog-valid = las entradas de list_pathways son entradas de registro válidas, con pasos únicos y requires conocidos
diagnostics-check-feed-unknown-class = el flujo de eventos de una clase que no existe responde 404
diagnostics-check-writes-room = pause_class y resume_class surten efecto y se reflejan en el flujo de eventos
diagnostics-check-feed-content-type = el flujo de eventos responde con text/event-stream
diagnostics-check-feed-opening = una conexión empieza con RUN_STARTED y luego STATE_SNAPSHOT {"{"}class_id, learners, assignments{"}"}
diagnostics-check-feed-ids = cada trama de datos después de la apertura lleva un id: <seq>
diagnostics-check-feed-seq-order = los seq son estrictamente crecientes
diagnostics-check-feed-agui = cada trama cumple las reglas del EventSchema de AG-UI
diagnostics-check-feed-contract = cada trama de a2learn cumple el contrato
diagnostics-check-feed-utc = cada hora está escrita en UTC (Z)
diagnostics-check-feed-ping = el flujo de eventos nunca calla 15 s: una trama o un ping al menos cada 15 s
diagnostics-check-feed-resume = al reconectar con Last-Event-ID llegan exactamente las tramas posteriores a ese id
diagnostics-check-results-match-feed = get_pathway_results contiene exactamente las finalizaciones y dificultades que trajo el flujo de eventos
diagnostics-check-writes-create-class = create_class devuelve un id de clase y un código de acceso, y el flujo de eventos de la clase se abre
diagnostics-check-writes-assign-idempotent = asignar dos veces el mismo itinerario a la misma clase devuelve el mismo id de asignación
diagnostics-check-writes-claim-respond = una solicitud de ayuda se atiende y se responde, y el flujo de eventos refleja ambas cosas
