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
