# El informe imprimible: la página HTML por asignación que escribe
# `a2learn-teacher report --format html` (con `--lang` para el idioma).

print-title = { $class } — informe de la clase
print-no-assignments = No hay asignaciones.
print-heading = { $class } — { $pathway }
print-meta = Clase { $class } · asignación { $assignment } · generado { $made } (UTC)
print-meta-group = solo el grupo “{ $group }”
print-identified = nombra a estudiantes: no sacar de la escuela
print-anonymous = identificadores anónimos

print-completion-title = Finalización
print-completion = { $finished } de { $learners ->
        [one] { $learners } estudiante
       *[other] { $learners } estudiantes
    } terminaron todos los pasos; { $started } empezaron.

print-steps-title = Pasos
print-col-incorrect = Incorrecto
print-col-median-time = Tiempo mediano*
print-col-helped = Ayudados · luego bien**
print-not-assessed = (no evaluado)
print-steps-note = * Tiempo mediano en un paso: desde terminar el paso anterior hasta terminar este (el primer paso no tiene). ** Solicitudes de ayuda respondidas o rechazadas en el paso, y cuántos de esos estudiantes acertaron después (en su siguiente intento del paso, o del paso siguiente si ya lo habían terminado antes de la ayuda).

print-col-results = Resultados
print-col-attempts = Intentos
print-col-hints = Pistas

print-follow-up-title = Quién necesita seguimiento
print-col-learner = Estudiante
print-col-why = Motivo
print-why-missed-help = pidió ayuda; la solicitud se cerró sin respuesta
print-why-incorrect = incorrecto

print-students-title = Estudiantes
print-outcome-first-try = bien al primer intento
print-outcome-after-retries = bien tras reintentos
print-outcome-incorrect = incorrecto
print-outcome-no-verdict = completado, sin veredicto
print-outcome-not-reached = sin llegar

## La línea sobre la actualidad de los datos del informe (horas en UTC).

print-fresh-none = Aún no se ha recibido trabajo.
print-fresh-heard = Recibido todo el trabajo hasta { $newest } (UTC); se supo del host por última vez { $heard }.
print-fresh = Recibido todo el trabajo hasta { $newest } (UTC).
