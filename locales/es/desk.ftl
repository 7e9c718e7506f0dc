# La mesa de ayuda: las solicitudes de ayuda de los estudiantes, las respuestas del docente y las
# respuestas guardadas.

desk-title = Mesa de ayuda
desk-waiting-count = { $count ->
    [one] { $count } solicitud en espera
   *[other] { $count } solicitudes en espera
}
desk-mute-label = Sonido y notificación para solicitudes nuevas
desk-loading = Cargando…
desk-empty = Nadie está esperando ayuda.

## Cuánto ha esperado o cuánto le queda a una solicitud.

desk-span-minutes-seconds = { $m } min { $s } s

## Lo que el docente tiene pendiente.

desk-follow-up-title = Sin respuesta — hacer seguimiento
desk-follow-up-what = preguntó hace { $ago }; nadie respondió a tiempo
desk-visits-title = Visitas
desk-visit-what = dijiste que irías a su sitio, hace { $ago }
desk-done = Hecho

## Las solicitudes en espera, agrupadas por paso.

desk-group-label = Solicitudes sobre { $step }
desk-group-students = { $count ->
    [one] { $count } estudiante
   *[other] { $count } estudiantes
}
desk-learner-groups-title = Por tus grupos
desk-learner-group-waiting = { $group } · { $count } en espera

## El estado de una solicitud.

desk-state-open = en espera
desk-state-claimed-by-me = tomada por ti
desk-state-claimed-by-other = tomada por otro docente
desk-state-answered = respondida
desk-state-declined = rechazada
desk-state-expired = caducada
desk-state-failed = cerrada

## La tarjeta de una solicitud en espera.

desk-waiting-for = esperando desde hace { $span }
desk-time-left = quedan { $span }
desk-question-hidden = Pregunta oculta en el modo seguro para proyector.
desk-attempts = { $count ->
    [one] { $count } intento
   *[other] { $count } intentos
}
desk-hints = { $count ->
    [one] { $count } pista
   *[other] { $count } pistas
}
desk-open-answer = Responder
desk-hide-answer = Ocultar respuesta
desk-claim = Tomar
desk-coming-over = Voy para allá
desk-decline = Rechazar
desk-answer-hidden = La redacción de respuestas está oculta en el modo seguro para proyector.
desk-answer-label = Respuesta
desk-insert-reply = Insertar una respuesta guardada
desk-insert-reply-group = Insertar una respuesta guardada para el grupo
desk-saved-reply-choose = Respuesta guardada…
desk-send-answer = Enviar respuesta
desk-draft-kept = Borrador guardado: { $draft }
desk-answer-sent = Respuesta: { $answer }
desk-closed-title = Cerradas recientemente

## Una sola respuesta para varios estudiantes.

desk-group-answer = Una respuesta para los { $count }
desk-group-send = Enviar a los { $count }
desk-group-hide = Ocultar
desk-group-sent = { $count ->
    [one] Enviada a { $count } estudiante.
   *[other] Enviada a { $count } estudiantes.
}
desk-group-sent-partial = Enviada a { $sent } de { $total }; { $errors }

## Por qué no se envió una respuesta, una toma o un rechazo.

desk-error-expired = el plazo de esta solicitud ha vencido; ya no se puede responder
desk-error-already-answered = esta solicitud ya tiene su respuesta
desk-error-already-claimed = otro docente ha tomado esta solicitud

## Respuestas guardadas.

desk-replies-title = Respuestas guardadas
desk-replies-empty = Todavía no hay respuestas guardadas.
desk-reply-edit = Editar
desk-reply-delete = Eliminar
desk-reply-title-new = Nueva respuesta guardada: título
desk-reply-title = Título
desk-reply-body = Texto
desk-reply-save = Guardar respuesta
desk-reply-save-changes = Guardar cambios
desk-reply-cancel = Cancelar

## El título de la ventana.

desk-window-title = ({ $count }) { app-name }
