# ABC043 B
def main():
        S = str(input())
        R = []
        I = 0
        while I<len(S):
                if S[I]!="B":
                        R.append(S[I])
                elif R:
                        del R[-1]
                I += 1
        print("".join(R))
main()
