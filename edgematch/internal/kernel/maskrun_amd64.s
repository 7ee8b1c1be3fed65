//go:build amd64 && !tessera_checked && !purego

#include "go_asm.h"
#include "textflag.h"

// The inner loop of runMasks: maskRunGo in masks.go, step for step.
//
// Registers: DI the kernel state k, R8 &steps[0], R9 &cand[0],
// R10 &avail[0], R11 &tog4[0], R12 &col[0], R13 step i, R14 the
// candidates r still to try at step i (bits above lb), R15 lb.
// AX, BX, CX, DX and SI are scratch; k.ci holds the candidate being
// placed. Indices are not checked: they are bounded as for at (see
// index_fast.go), and the tests compare this kernel with maskRunGo.

// FLIP toggles the entry tog of piece p (tog at off(CX)): avail[tog>>6]
// ^= 1 << (tog&63). It uses BX, DX and SI.
#define FLIP(off) \
	MOVL off(CX), DX \
	MOVL DX, BX \
	SHRL $6, BX \
	MOVQ (R10)(BX*8), SI \
	BTCQ DX, SI \
	MOVQ SI, (R10)(BX*8)

// OWN takes p's entry tog (at off(CX)) out of rn (SI) when it lies in
// list t (AX). It uses BX and DX.
#define OWN(off, skip) \
	MOVL off(CX), DX \
	MOVL DX, BX \
	SHRL $6, BX \
	CMPL BX, AX \
	JNE skip \
	BTCQ DX, SI \
skip:

// func maskRun(k *maskKernel, entry int) int
TEXT ·MaskRun(SB), NOSPLIT, $0-24
	MOVQ k+0(FP), DI
	MOVQ MaskKernel_steps(DI), R8
	MOVQ MaskKernel_cand(DI), R9
	MOVQ MaskKernel_avail(DI), R10
	MOVQ MaskKernel_tog4(DI), R11
	MOVQ MaskKernel_col(DI), R12
	MOVQ MaskKernel_i(DI), R13
	MOVQ MaskKernel_r(DI), R14
	MOVQ MaskKernel_lb(DI), R15
	CMPQ entry+8(FP), $const_KernelResume
	JNE  top
	// Resume: candidate ci at step i had its look.
	MOVQ MaskKernel_ci(DI), AX
	MOVL candidate_Packed(R9)(AX*8), DX
	MOVQ R13, BX
	SHLQ $5, BX
	ADDQ R8, BX
	JMP  next

top:
	TESTQ R14, R14
	JEQ   back
	// ci = lb + the lowest bit of r; r &= r-1.
	BSFQ  R14, AX
	ADDQ  R15, AX
	MOVQ  AX, MaskKernel_ci(DI)
	LEAQ  -1(R14), BX
	ANDQ  BX, R14
	MOVL  candidate_Packed(R9)(AX*8), DX // e.packed
	MOVQ  R13, BX
	SHLQ  $5, BX
	ADDQ  R8, BX                         // &steps[i]
	MOVL  loopStep_Xs(BX), CX
	CMPL  CX, loopStep_Xe(BX)
	JNE   extras

placed:
	DECQ  MaskKernel_left(DI)
	JLE   look
	CMPB  loopStep_watch(BX), $0
	JNE   look

next:
	// The key of step i+1: its high part a<<ks in SI, then t in AX.
	MOVBQSX (loopStep__size+loopStep_ASh)(BX), CX
	TESTQ CX, CX
	JLT   acol
	MOVBLZX (loopStep__size+loopStep_aRot)(BX), CX
	MOVL  DX, SI
	ROLL  CX, SI
	ANDL  MaskKernel_keyHi(DI), SI

bkey:
	MOVBQSX (loopStep__size+loopStep_BSh)(BX), CX
	TESTQ CX, CX
	JLT   bcol
	MOVL  DX, AX
	SHRL  CX, AX
	MOVBLZX AL, AX

bdone:
	ORL   SI, AX
	ADDL  (loopStep__size+loopStep_tab)(BX), AX // t
	MOVQ  (R10)(AX*8), SI                       // rn
	TESTQ SI, SI
	JEQ   top                                   // a leaf
	MOVQ  MaskKernel_ci(DI), CX
	MOVWLZX candidate_Piece(R9)(CX*8), CX
	SHLQ  $4, CX
	ADDQ  R11, CX                               // &tog4[p]
	OWN(0, own1)
	OWN(4, own2)
	OWN(8, own3)
	OWN(12, own4)
	TESTQ SI, SI
	JEQ   top                                   // a leaf after all

	// Descend: save step i (r, lb, p), write its path and colours,
	// mark p, and go to step i+1.
	MOVQ  MaskKernel_frames(DI), BX
	MOVQ  R13, DX
	SHLQ  $4, DX
	ADDQ  DX, BX
	MOVQ  R14, maskFrame_r(BX)
	MOVL  R15, maskFrame_lb(BX)
	MOVQ  CX, DX
	SUBQ  R11, DX
	SHRQ  $4, DX
	MOVW  DX, maskFrame_p(BX)
	MOVQ  SI, R14
	MOVQ  MaskKernel_start(DI), BX
	MOVLQSX (BX)(AX*4), R15
	MOVQ  MaskKernel_ci(DI), DX
	MOVQ  MaskKernel_path(DI), BX
	MOVL  DX, (BX)(R13*4)
	MOVL  candidate_Packed(R9)(DX*8), SI
	MOVQ  R13, DX
	SHLQ  $5, DX
	MOVLQSX loopStep_Pad4(R8)(DX*1), DX
	MOVL  SI, (R12)(DX*1)
	FLIP(0)
	FLIP(4)
	FLIP(8)
	FLIP(12)
	INCQ  R13
	JMP   top

back:
	// Backtrack: free the piece placed at the step before.
	CMPQ  R13, MaskKernel_base(DI)
	JEQ   done
	DECQ  R13
	MOVQ  MaskKernel_frames(DI), BX
	MOVQ  R13, DX
	SHLQ  $4, DX
	ADDQ  DX, BX
	MOVQ  maskFrame_r(BX), R14
	MOVLQSX maskFrame_lb(BX), R15
	MOVWLZX maskFrame_p(BX), CX
	SHLQ  $4, CX
	ADDQ  R11, CX
	FLIP(0)
	FLIP(4)
	FLIP(8)
	FLIP(12)
	JMP   top

acol:
	// Step i+1's high key colour from col.
	MOVLQSX (loopStep__size+loopStep_SrcA)(BX), CX
	MOVBLZX (R12)(CX*1), SI
	MOVQ  MaskKernel_ks(DI), CX
	SHLL  CX, SI
	JMP   bkey

bcol:
	MOVLQSX (loopStep__size+loopStep_SrcB)(BX), CX
	MOVBLZX (R12)(CX*1), AX
	JMP   bdone

extras:
	// The known sides beyond the key: xSide[j], xSrc[j] for j in xs..xe.
	MOVLQSX CX, AX

xloop:
	MOVQ  MaskKernel_xSide(DI), SI
	MOVBLZX (SI)(AX*1), CX
	SHLL  $3, CX
	MOVL  DX, SI
	SHRL  CX, SI
	ANDL  $0xff, SI
	MOVQ  MaskKernel_xSrc(DI), CX
	MOVLQSX (CX)(AX*4), CX
	MOVBLZX (R12)(CX*1), CX
	CMPL  SI, CX
	JNE   top
	INCL  AX
	CMPL  AX, loopStep_Xe(BX)
	JLT   xloop
	JMP   placed

look:
	MOVQ  R13, MaskKernel_i(DI)
	MOVQ  R14, MaskKernel_r(DI)
	MOVQ  R15, MaskKernel_lb(DI)
	MOVQ  $const_KernelLook, ret+16(FP)
	RET

done:
	MOVQ  R13, MaskKernel_i(DI)
	MOVQ  R14, MaskKernel_r(DI)
	MOVQ  R15, MaskKernel_lb(DI)
	MOVQ  $const_KernelDone, ret+16(FP)
	RET
