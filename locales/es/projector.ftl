# La ventana del proyector: lo que toda la clase ve en la pared. Solo cifras y alias, nunca un nombre.

projector-window-title = a2learn Teacher — proyector
projector-loading = Cargando…
projector-title = { $count ->
    [one] Nuestra clase: { $count } estudiante
   *[other] Nuestra clase: { $count } estudiantes
}
projector-help-title = Ayuda
projector-waiting = { $count ->
    [0] Nadie está esperando ayuda.
    [one] { $count } petición en espera.
   *[other] { $count } peticiones en espera.
}
projector-help-queue = Cola de ayuda, por orden de llegada
projector-work-title = Nuestro trabajo
projector-response-label = Respuesta { $letter }
projector-progress = Progreso: { $title }
projector-step-done = Terminado: { $done } de { $learners }
projector-step-done-working = Terminado: { $done } de { $learners } · En curso: { $working }
projector-mastery-title = Dominio por estándar
projector-small-groups = No se muestran los grupos de menos de { $k } estudiantes.
projector-standard = Estándar
projector-evidence = Evidencia
projector-other-steps = Otros pasos
projector-knowledge-title = Dónde está la clase
projector-pathway-map = Dónde está cada uno: { $title }
projector-step = Paso
projector-step-numbered = { $n }. { $title }
projector-pacing-limit = · Ritmo: hasta aquí
