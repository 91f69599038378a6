import sys

val = sys.stdin.readline().rstrip()

num = []

for z in val:
        if z=="B":
                try:
                        num.pop()
                except IndexError:
                        pass
        else:

                num.append(z)
print("".join(num))
