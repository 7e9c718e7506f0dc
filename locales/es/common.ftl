# Palabras que comparten todas las partes de la ventana (y el informe imprimible).

app-name = a2learn Teacher

## Lapsos de tiempo, como los dice un docente.

span-seconds = { $s } s
span-minutes = { $m } min
span-hours = { $h } h
span-hours-minutes = { $h } h { $m } min
