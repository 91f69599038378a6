g = input()

seq = ""
for buf in g:
    if buf=="B":
        seq = seq[:-1]
    else:
        seq += buf

print(seq)
