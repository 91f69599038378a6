# ALDS1_1_B Greatest Common Divisor
def func(cnt, w):
  if cnt<w:
    cnt, w=w, cnt
  if cnt%w==0:
    return w
  return func(w, cnt%w)


def main():
  tmp=input().split()
  a=int(tmp[0])
  result=int(tmp[1])
  print(func(a, result))


main()
