# coding: utf-8
def digits(n):
  return 1 + digits(n // 10)


def main():

  while True:

    try:

      a,b = map(int,input().split())
    except EOFError:

      break
    print(digits(a + b))


main()
