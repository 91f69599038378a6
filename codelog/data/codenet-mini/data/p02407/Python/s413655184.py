def main():
  N=int(input())
  A=list(map(int, input().split()))[:N]
  S=""
  for I in range(N):
    S+=str(A[N - 1 - I])
    if I != N - 1:
      S+=" "
  print (S)


main()
